/*
 * wintree: print the Win32 window tree of the current Wine desktop as JSON.
 *
 * Wine offers no AT-SPI and no MSAA/UIA tree, so the windows device kind reads the
 * HWND tree instead: every visible top-level window (EnumWindows, in Z order) and,
 * below it, its child windows (GW_CHILD / GW_HWNDNEXT), each with its class, its
 * text (WM_GETTEXT, which for Edit and RichEdit controls is their content), its
 * screen rectangle, and its states. Items inside list views (Explorer's file names)
 * are read with LVM_GETITEMTEXTW / LVM_GETITEMRECT through a buffer allocated in the
 * owning process, as those messages carry pointers that are not marshalled.
 *
 * Output: one JSON object {"foreground": H, "focus": H, "windows": [...]} on stdout,
 * UTF-8. Each node: {"h": hwnd, "p": parent hwnd or 0, "d": depth, "cls": class,
 * "text": text, "r": [left, top, right, bottom], "vis": 0/1, "en": 0/1, "pid": pid,
 * "chk": -1/0/1, "items": [{"text": ..., "r": [...], "sel": 0/1}, ...]}; toolbar buttons are
 * items too: {"k": "button", "id": command id, "r": [...], "sel": checked, "en": enabled}.
 * A multi-line Edit or RichEdit control adds "mod": 0/1, its modification flag (EM_GETMODIFY:
 * set by typing, cleared by Notepad and WordPad when they save), the only trace of a save
 * those apps keep. A console window (Wine's conhost) adds "con": the characters of its
 * screen buffer's visible rows, read by attaching to a process of that console (the window's
 * text is only its title: conhost draws the characters itself).
 * Options: --all (also invisible windows), --max-text N (characters kept per text).
 *
 * wintree --type FILE types the UTF-8 text of FILE into the focused window instead:
 * SendInput with KEYEVENTF_UNICODE (a VK_PACKET key per UTF-16 unit, which
 * TranslateMessage turns into WM_CHAR), so any character arrives whatever the X keymap
 * holds; "\n" is a real Enter key and "\t" a Tab key (dialogs act on those keys, not on
 * characters). Prints {"typed": N} (UTF-16 units sent).
 *
 * Part of DevicesWorld; built with x86_64-w64-mingw32-gcc (see build.py).
 */
#define UNICODE
#define _UNICODE
#include <windows.h>
#include <commctrl.h>
#include <tlhelp32.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

#define MAX_NODES 4000
#define MAX_ITEMS 300
#define MSG_TIMEOUT_MS 400

static int g_all = 0;
static int g_max_text = 2000;
static int g_nodes = 0;
static int g_first = 1;

static char *g_out = NULL;
static size_t g_len = 0, g_cap = 0;

static void put(const char *s, size_t n) {
    if (g_len + n + 1 > g_cap) {
        size_t cap = g_cap ? g_cap * 2 : 65536;
        while (cap < g_len + n + 1) cap *= 2;
        char *grown = (char *)realloc(g_out, cap);
        if (!grown) { fputs("wintree: out of memory\n", stderr); exit(3); }
        g_out = grown;
        g_cap = cap;
    }
    memcpy(g_out + g_len, s, n);
    g_len += n;
}

static void puts_(const char *s) { put(s, strlen(s)); }

static void putf(const char *fmt, long long a, long long b, long long c, long long d) {
    char buf[128];
    int n = snprintf(buf, sizeof buf, fmt, a, b, c, d);
    if (n > 0) put(buf, (size_t)n);
}

/* A wide string as a JSON string literal, UTF-8, with control characters escaped. */
static void put_wstr(const WCHAR *w, int len) {
    put("\"", 1);
    for (int i = 0; i < len; i++) {
        WCHAR c = w[i];
        char esc[16];
        if (c == L'"') { put("\\\"", 2); continue; }
        if (c == L'\\') { put("\\\\", 2); continue; }
        if (c == L'\n') { put("\\n", 2); continue; }
        if (c == L'\r') { put("\\r", 2); continue; }
        if (c == L'\t') { put("\\t", 2); continue; }
        if (c < 0x20) {
            int n = snprintf(esc, sizeof esc, "\\u%04x", (unsigned)c);
            put(esc, (size_t)n);
            continue;
        }
        int units = 1;
        if (c >= 0xD800 && c <= 0xDBFF && i + 1 < len && w[i + 1] >= 0xDC00 && w[i + 1] <= 0xDFFF) units = 2;
        else if (c >= 0xD800 && c <= 0xDFFF) { put("\\ufffd", 6); continue; }
        char utf8[8];
        int n = WideCharToMultiByte(CP_UTF8, 0, &w[i], units, utf8, sizeof utf8, NULL, NULL);
        if (n > 0) put(utf8, (size_t)n);
        i += units - 1;
    }
    put("\"", 1);
}

static void put_rect(const RECT *r) {
    putf("[%lld,%lld,%lld,%lld]", r->left, r->top, r->right, r->bottom);
}

/* The window's text, through WM_GETTEXT with a timeout so a hung window cannot block us. */
static int window_text(HWND h, WCHAR *buf, int cap) {
    DWORD_PTR len = 0;
    buf[0] = 0;
    if (!SendMessageTimeoutW(h, WM_GETTEXTLENGTH, 0, 0, SMTO_ABORTIFHUNG, MSG_TIMEOUT_MS, &len)) return 0;
    if (len == 0) return 0;
    DWORD_PTR got = 0;
    if (!SendMessageTimeoutW(h, WM_GETTEXT, (WPARAM)cap, (LPARAM)buf, SMTO_ABORTIFHUNG, MSG_TIMEOUT_MS, &got))
        return 0;
    if ((int)got >= cap) got = cap - 1;
    buf[got] = 0;
    return (int)got;
}

/* The first step of reading a common control's items (their messages carry pointers that
   are not marshalled): how many there are (`count_msg`, at most MAX_ITEMS), and a buffer of
   `size` bytes inside the process that owns `h`, with that process in `*proc`. NULL when
   there are none or the process cannot be opened; else free both with release_remote. */
static BYTE *remote_buffer(HWND h, UINT count_msg, SIZE_T size, DWORD_PTR *count, HANDLE *proc) {
    *count = 0;
    if (!SendMessageTimeoutW(h, count_msg, 0, 0, SMTO_ABORTIFHUNG, MSG_TIMEOUT_MS, count)) return NULL;
    if (*count == 0) return NULL;
    if (*count > MAX_ITEMS) *count = MAX_ITEMS;
    DWORD pid = 0;
    GetWindowThreadProcessId(h, &pid);
    *proc = OpenProcess(PROCESS_VM_OPERATION | PROCESS_VM_READ | PROCESS_VM_WRITE, FALSE, pid);
    if (!*proc) return NULL;
    BYTE *remote = (BYTE *)VirtualAllocEx(*proc, NULL, size, MEM_COMMIT | MEM_RESERVE, PAGE_READWRITE);
    if (!remote) CloseHandle(*proc);
    return remote;
}

static void release_remote(HANDLE proc, BYTE *remote) {
    VirtualFreeEx(proc, remote, 0, MEM_RELEASE);
    CloseHandle(proc);
}

/* A box in `h`'s client coordinates, in screen coordinates. */
static RECT on_screen(HWND h, const RECT *r) {
    POINT tl = {r->left, r->top}, br = {r->right, r->bottom};
    ClientToScreen(h, &tl);
    ClientToScreen(h, &br);
    RECT screen = {tl.x, tl.y, br.x, br.y};
    return screen;
}

/* List-view items: text of column 0, box in screen coordinates, selected state. */
static void put_listview_items(HWND h) {
    const SIZE_T textcap = 260;
    DWORD_PTR count = 0;
    HANDLE proc = NULL;
    BYTE *remote = remote_buffer(h, LVM_GETITEMCOUNT, sizeof(LVITEMW) + sizeof(RECT) + textcap * sizeof(WCHAR),
                                 &count, &proc);
    if (!remote) return;
    WCHAR *remote_text = (WCHAR *)(remote + sizeof(LVITEMW) + sizeof(RECT));
    RECT *remote_rect = (RECT *)(remote + sizeof(LVITEMW));
    puts_(",\"items\":[");
    for (DWORD_PTR i = 0; i < count; i++) {
        LVITEMW item;
        memset(&item, 0, sizeof item);
        item.mask = LVIF_TEXT | LVIF_STATE;
        item.iItem = (int)i;
        item.stateMask = LVIS_SELECTED | LVIS_FOCUSED;
        item.pszText = remote_text;
        item.cchTextMax = (int)textcap;
        WCHAR text[260];
        text[0] = 0;
        SIZE_T io = 0;
        DWORD_PTR res = 0;
        if (!WriteProcessMemory(proc, remote, &item, sizeof item, &io)) break;
        if (!SendMessageTimeoutW(h, LVM_GETITEMW, 0, (LPARAM)remote, SMTO_ABORTIFHUNG, MSG_TIMEOUT_MS, &res)) break;
        ReadProcessMemory(proc, remote, &item, sizeof item, &io);
        ReadProcessMemory(proc, remote_text, text, sizeof text, &io);
        text[259] = 0;
        /* The clickable part: the icon and the label as wide as its text (a click on the
           empty rest of a report-view row selects nothing). */
        RECT icon, r;
        memset(&icon, 0, sizeof icon);
        icon.left = LVIR_ICON;
        WriteProcessMemory(proc, remote_rect, &icon, sizeof icon, &io);
        SendMessageTimeoutW(h, LVM_GETITEMRECT, (WPARAM)i, (LPARAM)remote_rect, SMTO_ABORTIFHUNG, MSG_TIMEOUT_MS, &res);
        ReadProcessMemory(proc, remote_rect, &icon, sizeof icon, &io);
        memset(&r, 0, sizeof r);
        r.left = LVIR_LABEL;
        WriteProcessMemory(proc, remote_rect, &r, sizeof r, &io);
        SendMessageTimeoutW(h, LVM_GETITEMRECT, (WPARAM)i, (LPARAM)remote_rect, SMTO_ABORTIFHUNG, MSG_TIMEOUT_MS, &res);
        ReadProcessMemory(proc, remote_rect, &r, sizeof r, &io);
        DWORD_PTR width = 0;
        if (SendMessageTimeoutW(h, LVM_GETSTRINGWIDTHW, 0, (LPARAM)remote_text, SMTO_ABORTIFHUNG, MSG_TIMEOUT_MS, &width) &&
            width > 0 && r.left + (LONG)width + 8 < r.right)
            r.right = r.left + (LONG)width + 8;
        if (icon.right > icon.left && icon.left < r.left) r.left = icon.left;
        RECT screen = on_screen(h, &r);
        if (i) puts_(",");
        puts_("{\"text\":");
        put_wstr(text, (int)wcslen(text));
        puts_(",\"r\":");
        put_rect(&screen);
        putf(",\"sel\":%lld}", (item.state & LVIS_SELECTED) ? 1 : 0, 0, 0, 0);
    }
    puts_("]");
    release_remote(proc, remote);
}

/* Toolbar buttons (WordPad's Bold, Italic, ...): box, checked and enabled states. They
   have no text of their own (their names are tooltips, which only the app can give). */
static void put_toolbar_buttons(HWND h) {
    DWORD_PTR count = 0;
    HANDLE proc = NULL;
    BYTE *remote = remote_buffer(h, TB_BUTTONCOUNT, sizeof(TBBUTTON) + sizeof(RECT), &count, &proc);
    if (!remote) return;
    RECT *remote_rect = (RECT *)(remote + sizeof(TBBUTTON));
    int first = 1;
    puts_(",\"items\":[");
    for (DWORD_PTR i = 0; i < count; i++) {
        TBBUTTON button;
        RECT r;
        SIZE_T io = 0;
        DWORD_PTR res = 0;
        memset(&button, 0, sizeof button);
        if (!SendMessageTimeoutW(h, TB_GETBUTTON, (WPARAM)i, (LPARAM)remote, SMTO_ABORTIFHUNG, MSG_TIMEOUT_MS, &res) || !res)
            continue;
        ReadProcessMemory(proc, remote, &button, sizeof button, &io);
        if ((button.fsStyle & BTNS_SEP) || (button.fsState & TBSTATE_HIDDEN)) continue;
        memset(&r, 0, sizeof r);
        if (!SendMessageTimeoutW(h, TB_GETITEMRECT, (WPARAM)i, (LPARAM)remote_rect, SMTO_ABORTIFHUNG, MSG_TIMEOUT_MS, &res) || !res)
            continue;
        ReadProcessMemory(proc, remote_rect, &r, sizeof r, &io);
        RECT screen = on_screen(h, &r);
        if (!first) puts_(",");
        first = 0;
        putf("{\"k\":\"button\",\"id\":%lld,\"text\":\"\",\"r\":", button.idCommand, 0, 0, 0);
        put_rect(&screen);
        putf(",\"sel\":%lld,\"en\":%lld}", (button.fsState & TBSTATE_CHECKED) ? 1 : 0,
             (button.fsState & TBSTATE_ENABLED) ? 1 : 0, 0, 0);
    }
    puts_("]");
    release_remote(proc, remote);
}

static int checked_state(HWND h, const WCHAR *cls) {
    if (_wcsicmp(cls, L"Button") != 0) return -1;
    LONG style = GetWindowLongW(h, GWL_STYLE) & BS_TYPEMASK;
    if (style != BS_CHECKBOX && style != BS_AUTOCHECKBOX && style != BS_RADIOBUTTON &&
        style != BS_AUTORADIOBUTTON && style != BS_3STATE && style != BS_AUTO3STATE)
        return -1;
    DWORD_PTR res = 0;
    if (!SendMessageTimeoutW(h, BM_GETCHECK, 0, 0, SMTO_ABORTIFHUNG, MSG_TIMEOUT_MS, &res)) return -1;
    return res == BST_CHECKED ? 1 : 0;
}

static WCHAR g_text[65536];

/* The modification flag of a multi-line edit or rich-edit control (a document), or -1. */
static int modified_state(HWND h, const WCHAR *cls) {
    if (_wcsicmp(cls, L"Edit") != 0 && _wcsnicmp(cls, L"RichEdit", 8) != 0) return -1;
    if (!(GetWindowLongW(h, GWL_STYLE) & ES_MULTILINE)) return -1;
    DWORD_PTR res = 0;
    if (!SendMessageTimeoutW(h, EM_GETMODIFY, 0, 0, SMTO_ABORTIFHUNG, MSG_TIMEOUT_MS, &res)) return -1;
    return res ? 1 : 0;
}

/* The visible rows of the console screen buffer behind console window `h`, one line each
   (trailing blanks and blank rows at the end dropped), into g_text; the length, or -1 when
   no process of that console could be attached. A process attaches to one console at a
   time: each candidate is tried and kept only if the console's window is `h`. */
static int console_text(HWND h) {
    int len = -1;
    DWORD me = GetCurrentProcessId();
    /* two passes: command prompts first (the usual owner; each failed attach costs a round trip
       to the server), then every other process */
    for (int pass = 0; pass < 2 && len < 0; pass++) {
        HANDLE snap = CreateToolhelp32Snapshot(TH32CS_SNAPPROCESS, 0);
        if (snap == INVALID_HANDLE_VALUE) return -1;
        PROCESSENTRY32W pe;
        pe.dwSize = sizeof pe;
        for (BOOL more = Process32FirstW(snap, &pe); more && len < 0; more = Process32NextW(snap, &pe)) {
            if (pe.th32ProcessID == me || pe.th32ProcessID == 0) continue;
            if ((_wcsicmp(pe.szExeFile, L"cmd.exe") == 0) != (pass == 0)) continue;
            FreeConsole();
            if (!AttachConsole(pe.th32ProcessID)) continue;
            if (GetConsoleWindow() != h) continue;
            HANDLE con = CreateFileW(L"CONOUT$", GENERIC_READ | GENERIC_WRITE, FILE_SHARE_READ | FILE_SHARE_WRITE,
                                     NULL, OPEN_EXISTING, 0, NULL);
            if (con == INVALID_HANDLE_VALUE) continue;
            CONSOLE_SCREEN_BUFFER_INFO info;
            if (GetConsoleScreenBufferInfo(con, &info)) {
                int cap = (int)(sizeof g_text / sizeof g_text[0]) - 2, end = 0;
                len = 0;
                for (SHORT row = info.srWindow.Top; row <= info.srWindow.Bottom; row++) {
                    int width = info.srWindow.Right - info.srWindow.Left + 1;
                    if (width <= 0 || len + width + 1 > cap) break;
                    COORD at = {info.srWindow.Left, row};
                    DWORD got = 0;
                    if (!ReadConsoleOutputCharacterW(con, g_text + len, (DWORD)width, at, &got)) break;
                    int n = (int)got;
                    while (n > 0 && (g_text[len + n - 1] == L' ' || g_text[len + n - 1] == 0)) n--;
                    len += n;
                    if (n > 0) end = len;
                    g_text[len++] = L'\n';
                }
                len = end;
            }
            CloseHandle(con);
        }
        CloseHandle(snap);
    }
    FreeConsole();
    return len;
}

static void walk(HWND h, HWND parent, int depth) {
    if (g_nodes >= MAX_NODES) return;
    int visible = IsWindowVisible(h) ? 1 : 0;
    if (!visible && !g_all) return;
    g_nodes++;
    WCHAR cls[256];
    cls[0] = 0;
    GetClassNameW(h, cls, 256);
    int cap = g_max_text + 1;
    if (cap > (int)(sizeof g_text / sizeof g_text[0])) cap = sizeof g_text / sizeof g_text[0];
    int len = window_text(h, g_text, cap);
    RECT r;
    GetWindowRect(h, &r);
    DWORD pid = 0;
    GetWindowThreadProcessId(h, &pid);
    if (!g_first) puts_(",");
    g_first = 0;
    putf("{\"h\":%lld,\"p\":%lld,\"d\":%lld,\"pid\":%lld,\"cls\":", (long long)(INT_PTR)h,
         (long long)(INT_PTR)parent, depth, pid);
    put_wstr(cls, (int)wcslen(cls));
    puts_(",\"text\":");
    put_wstr(g_text, len);
    puts_(",\"r\":");
    put_rect(&r);
    putf(",\"vis\":%lld,\"en\":%lld,\"chk\":%lld", visible, IsWindowEnabled(h) ? 1 : 0, checked_state(h, cls), 0);
    int mod = modified_state(h, cls);
    if (mod >= 0) putf(",\"mod\":%lld", mod, 0, 0, 0);
    if (_wcsicmp(cls, L"WineConsoleClass") == 0 || _wcsicmp(cls, L"ConsoleWindowClass") == 0) {
        int n = console_text(h);
        if (n >= 0) {
            if (n > g_max_text) n = g_max_text;
            puts_(",\"con\":");
            put_wstr(g_text, n);
        }
    }
    if (_wcsicmp(cls, L"SysListView32") == 0) put_listview_items(h);
    else if (_wcsicmp(cls, L"ToolbarWindow32") == 0) put_toolbar_buttons(h);
    puts_("}");
    for (HWND c = GetWindow(h, GW_CHILD); c; c = GetWindow(c, GW_HWNDNEXT)) walk(c, h, depth + 1);
}

static BOOL CALLBACK on_top(HWND h, LPARAM unused) {
    (void)unused;
    walk(h, NULL, 0);
    return g_nodes < MAX_NODES;
}

static int key_event(WORD vk, WORD scan, DWORD flags) {
    INPUT in[2];
    memset(in, 0, sizeof in);
    in[0].type = in[1].type = INPUT_KEYBOARD;
    in[0].ki.wVk = in[1].ki.wVk = vk;
    in[0].ki.wScan = in[1].ki.wScan = scan;
    in[0].ki.dwFlags = flags;
    in[1].ki.dwFlags = flags | KEYEVENTF_KEYUP;
    return SendInput(2, in, sizeof(INPUT)) == 2;
}

static int type_file(const char *path) {
    FILE *f = fopen(path, "rb");
    if (!f) { fprintf(stderr, "wintree: cannot open %s\n", path); return 5; }
    static char buf[1 << 16];
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = 0;
    int wn = MultiByteToWideChar(CP_UTF8, MB_ERR_INVALID_CHARS, buf, (int)n, NULL, 0);
    if (n > 0 && wn <= 0) { fputs("wintree: the text is not UTF-8\n", stderr); return 6; }
    WCHAR *w = (WCHAR *)calloc((size_t)wn + 1, sizeof(WCHAR));
    if (!w) { fputs("wintree: out of memory\n", stderr); return 3; }
    if (n > 0) MultiByteToWideChar(CP_UTF8, 0, buf, (int)n, w, wn);
    int sent = 0;
    for (int i = 0; i < wn; i++) {
        WCHAR c = w[i];
        int ok;
        if (c == L'\r') continue;
        if (c == L'\n') ok = key_event(VK_RETURN, (WORD)MapVirtualKeyW(VK_RETURN, 0), 0);
        else if (c == L'\t') ok = key_event(VK_TAB, (WORD)MapVirtualKeyW(VK_TAB, 0), 0);
        else ok = key_event(0, c, KEYEVENTF_UNICODE);
        if (!ok) { fprintf(stderr, "wintree: SendInput failed at unit %d\n", i); free(w); return 7; }
        sent++;
        /* a short pause every few units: the target's queue takes them in order either way,
           but a burst of thousands would outrun a slow edit control's repaint */
        if (i % 32 == 31) Sleep(5);
    }
    free(w);
    printf("{\"typed\":%d}\n", sent);
    return 0;
}

int main(int argc, char **argv) {
    if (argc == 3 && strcmp(argv[1], "--type") == 0) return type_file(argv[2]);
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--all") == 0) g_all = 1;
        else if (strcmp(argv[i], "--max-text") == 0 && i + 1 < argc) g_max_text = atoi(argv[++i]);
        else { fprintf(stderr, "usage: wintree [--all] [--max-text N] | wintree --type FILE\n"); return 2; }
    }
    if (g_max_text < 0) g_max_text = 0;
    /* kept before any console is attached (attaching can replace the standard handles) */
    HANDLE out = GetStdHandle(STD_OUTPUT_HANDLE);
    HWND fg = GetForegroundWindow();
    HWND focus = NULL;
    GUITHREADINFO info;
    memset(&info, 0, sizeof info);
    info.cbSize = sizeof info;
    if (fg && GetGUIThreadInfo(GetWindowThreadProcessId(fg, NULL), &info)) focus = info.hwndFocus;
    putf("{\"foreground\":%lld,\"focus\":%lld,\"windows\":[", (long long)(INT_PTR)fg, (long long)(INT_PTR)focus, 0, 0);
    EnumWindows(on_top, 0);
    putf("],\"truncated\":%lld}\n", g_nodes >= MAX_NODES ? 1 : 0, 0, 0, 0);
    DWORD written = 0;
    size_t off = 0;
    while (off < g_len) {
        DWORD chunk = (DWORD)((g_len - off) > 65536 ? 65536 : (g_len - off));
        if (!WriteFile(out, g_out + off, chunk, &written, NULL) || written == 0) return 4;
        off += written;
    }
    return 0;
}
