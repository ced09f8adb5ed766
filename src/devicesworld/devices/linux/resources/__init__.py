"""Deterministic generators and format-aware readers for the files a Linux task uses.

A task describes each resource by *content* (rows, paragraphs, sizes); the writers
here turn that into a format-valid file (one that the intended application opens),
and the readers turn files back into plain data for getters and checks. Heavy
libraries (openpyxl, python-docx, reportlab, pypdf, Pillow) are imported inside the
functions that need them, so a task that only uses text files never loads them.
"""
