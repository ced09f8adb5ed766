"""The GUI desktop's mail client, Claws Mail, set up so its drafts are the desktop's drafts.

Why Claws Mail: it is small (a GTK 3 app, so its compose window is in the AT-SPI element
list: To, Subject and the body are text fields, Draft is a push button) and it keeps a
local MH mailbox, a folder of numbered message files. Its mailbox is ``~/Mail`` with the
Drafts folder at ``~/Mail/Drafts``, where the ``email_draft`` check and the tool profile's
``write_email_draft`` keep drafts too; its other folders (inbox, sent, queue, trash) are
hidden dot-folders, so the messages of ``~/Mail/Inbox`` stay ``.eml`` files (what checks,
the tool profile and a terminal read) and the client's bookkeeping never counts as a change
to the user's files. An MH folder lists only numbered files, so the client's Inbox
(``~/Mail/.inbox``) is filled with numbered copies of those messages when the episode starts
(:mod:`.mail_inbox`), and the client opens it on start, listed newest first (its default sort)
with the newest message open; the arrow keys open the others.

The account sends nowhere (no receiving protocol, no reachable SMTP server: the desktop
has no network); the spell checker, autosave, automatic line wrapping (it would break a
long line, and a value in it, when typed) and the exit confirmation are off, so the
first window is the main window and a compose window saves only when asked. The main
window fills most of the screen, so the message list shows about 14 rows and its Date column
whole; the compose window is large enough that a filled recipient row and the new empty one
below it are both on screen.
"""

from __future__ import annotations

from pathlib import Path

MAILBOX = "Mail"
DRAFTS = "Drafts"
INBOX = ".inbox"
"""The client's Inbox folder under :data:`MAILBOX` (numbered copies of ``~/Mail/Inbox/*.eml``)."""

ACCOUNT = "me@home.example"
"""The account's address (the From of a draft; no check reads it)."""

FILES: dict[str, str] = {
    ".claws-mail/accountrc": f"""[Account: 1]
account_name={ACCOUNT}
is_default=1
name=Me
address={ACCOUNT}
protocol=6
smtp_server=localhost
set_draft_folder=1
draft_folder=#mh/Mailbox/{DRAFTS}
""",
    ".claws-mail/folderlist.xml": f"""<?xml version="1.0" encoding="UTF-8"?>
<folderlist>
<folder type="mh" name="Mailbox" path="{MAILBOX}" sort="0" collapsed="0">
<folderitem type="inbox" name="Inbox" path="{INBOX}"/>
<folderitem type="outbox" name="Sent" path=".sent"/>
<folderitem type="queue" name="Queue" path=".queue"/>
<folderitem type="draft" name="Drafts" path="{DRAFTS}"/>
<folderitem type="trash" name="Trash" path=".trash"/>
</folder>
</folderlist>
""",
    ".claws-mail/clawsrc": f"""[Common]
confirm_on_exit=0
warn_queued_on_exit=0
enable_aspell=0
check_while_typing=0
autosave=0
linewrap_auto=0
linewrap_length=990
compose_x=0
compose_y=0
compose_width=1000
compose_height=720
compose_notebook_height=300
mainwin_x=40
mainwin_y=40
mainwin_width=1200
mainwin_height=740
folderview_width=220
summaryview_height=380
summary_col_size_subject=400
summary_col_size_from=220
summary_col_size_date=170
summary_from_show=2
goto_last_folder_on_startup=1
last_opened_folder=#mh/Mailbox/{INBOX}
summary_select_prio1=5
open_selected_message_on_folder_open=1
open_selected_message_on_directional=1
""",
}
"""Files under the home, by path relative to it."""


def write_config(home: Path) -> None:
    """Write the mail client's configuration into ``home`` (the template home), and make its
    Drafts and Inbox folders: the client creates no missing folder, and a draft saved into one
    it cannot find fails with an error dialog (a world's desktop makes the folder too); an
    Inbox already there is in every home from the start, so only its messages are new."""
    for folder in (DRAFTS, INBOX):
        (home / MAILBOX / folder).mkdir(parents=True, exist_ok=True)
    for rel, text in FILES.items():
        path = home / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, "utf-8")
