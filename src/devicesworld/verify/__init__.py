"""Verifiers: checks over device getters, partial scoring and evaluator traces."""

from devicesworld.spec.values import resolve_path, values_match
from devicesworld.verify.checks import EPISODE_CHECKS, GENERIC_CHECKS
from devicesworld.verify.evaluate import ConditionResult, EvaluationResult, aggregate, evaluate_conditions
from devicesworld.verify.registry import check_names, find_check

__all__ = [
    "EPISODE_CHECKS",
    "GENERIC_CHECKS",
    "ConditionResult",
    "EvaluationResult",
    "aggregate",
    "check_names",
    "evaluate_conditions",
    "find_check",
    "resolve_path",
    "values_match",
]
