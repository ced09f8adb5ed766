"""The Win32 element-tree helper (``wintree.c``, our own) and its cached build."""
