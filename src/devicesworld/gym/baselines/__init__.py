"""Learning baselines on the phone environments: DQN/PPO and behaviour cloning with stable-baselines3.

Needs the ``sb3`` extra (``pip install 'devicesworld[sb3]'``: stable-baselines3 and
torch — kept out of ``dev`` so that CI never downloads torch). The numpy learners in
:mod:`devicesworld.gym.tabular` and :mod:`devicesworld.gym.bc` need neither.
"""
