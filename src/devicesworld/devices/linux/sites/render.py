"""Sites as plain HTML: semantic tags only, no scripts, so both browser backends read them alike."""

from __future__ import annotations

from html import escape

from devicesworld.devices.linux.sites.model import Form, FormField, Page, Site


def page_html(site: Site, page: Page, message: str | None = None, error: bool = False) -> str:
    nav = " | ".join(f'<a href="{escape(p.path)}">{escape(p.title)}</a>' for p in site.pages)
    parts = [
        "<!DOCTYPE html>",
        f'<html lang="en"><head><meta charset="utf-8"><title>{escape(page.title)} - {escape(site.title)}</title>',
        "<style>body{font-family:sans-serif;margin:2em;max-width:50em}table{border-collapse:collapse}"
        "td,th{border:1px solid #999;padding:4px 8px}label{display:block;margin-top:.6em}"
        ".error{color:#b00}.ok{color:#070}</style></head><body>",
        f"<nav>{nav}</nav>",
        f"<h1>{escape(page.title)}</h1>",
    ]
    if message:
        parts.append(f'<p class="{"error" if error else "ok"}" role="status">{escape(message)}</p>')
    parts += [f"<p>{escape(t)}</p>" for t in page.paragraphs]
    if page.table:
        head, *body = page.table
        parts.append(
            "<table><thead><tr>" + "".join(f"<th>{escape(h)}</th>" for h in head) + "</tr></thead><tbody>"
        )
        parts += ["<tr>" + "".join(f"<td>{escape(c)}</td>" for c in row) + "</tr>" for row in body]
        parts.append("</tbody></table>")
    if page.links:
        parts.append(
            "<ul>"
            + "".join(
                f'<li><a href="{escape(link.href)}">{escape(link.text)}</a></li>' for link in page.links
            )
            + "</ul>"
        )
    if page.form is not None:
        parts.append(form_html(page, page.form))
    parts.append("</body></html>")
    return "\n".join(parts)


def form_html(page: Page, form: Form) -> str:
    rows = [f'<form id="{escape(form.id)}" method="post" action="{escape(page.path)}">']
    rows += [_field_html(form.id, f) for f in form.fields]
    rows.append(f'<button type="submit">{escape(form.submit_label)}</button></form>')
    return "\n".join(rows)


def _field_html(form_id: str, f: FormField) -> str:
    fid = f"{form_id}-{f.name}"
    req = " required" if f.required else ""
    label = f'<label for="{fid}">{escape(f.label)}</label>'
    if f.type == "textarea":
        return f'{label}<textarea id="{fid}" name="{escape(f.name)}"{req}></textarea>'
    if f.type == "select":
        opts = '<option value="">-- choose --</option>' + "".join(
            f'<option value="{escape(o)}">{escape(o)}</option>' for o in f.options
        )
        return f'{label}<select id="{fid}" name="{escape(f.name)}"{req}>{opts}</select>'
    if f.type == "radio":
        radios = "".join(
            f'<label><input type="radio" name="{escape(f.name)}" value="{escape(o)}"> {escape(o)}</label>'
            for o in f.options
        )
        return f"<fieldset><legend>{escape(f.label)}</legend>{radios}</fieldset>"
    if f.type == "checkbox":
        return f'<label><input type="checkbox" id="{fid}" name="{escape(f.name)}" value="yes"> {escape(f.label)}</label>'
    return f'{label}<input type="{f.type}" id="{fid}" name="{escape(f.name)}"{req}>'


def not_found_html(host: str, path: str) -> str:
    return (
        f"<!DOCTYPE html><html><head><title>Not found</title></head><body><h1>Page not found</h1>"
        f'<p>There is no page {escape(path)} on {escape(host)}.</p><p><a href="/">Home</a></p></body></html>'
    )
