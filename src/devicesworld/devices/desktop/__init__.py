"""A real X desktop in a long-lived sandbox: the layer GUI device kinds share (not a kind itself).

One bubblewrap sandbox per desktop runs Xvfb, a session D-Bus, openbox, the AT-SPI bus
and a small controller (:mod:`.inside_ctl`, run by Debian's Python) that speaks JSON
lines. The host side is :class:`~.client.Desktop`: typed requests and replies
(:mod:`.messages`), spawned from one long-lived thread (:mod:`.spawner`) because
bubblewrap's ``--die-with-parent`` is tied to the spawning thread. :mod:`.actions`
declares the JarvisGUI unified action space as data and :mod:`.gui` executes it against a
desktop, resolving element indices and selectors against the last observation.

See docs/gui.md for the API and the design decisions.
"""
