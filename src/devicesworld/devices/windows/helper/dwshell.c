/*
 * dwshell.exe: the Windows desktop a person recognises, drawn by us on Wine's X desktop (issue #34).
 *
 * Wine 8 runs each app in its own X window and has no taskbar, clock or desktop icons outside its
 * `explorer /desktop=shell` virtual desktop (whose taskbar is a Start button only, and which puts
 * every app in one X window: docs/windows.md). So this small Win32 program draws them:
 *
 *   - "Program Manager" (class Progman): the desktop, a full-screen window kept at the bottom of the
 *     Z order, with an icon (class DesktopIcon, named by its label) for each home folder: user,
 *     Documents, Downloads, Pictures, Desktop. A click selects an icon; a double click opens Explorer
 *     on it. (Not a list view: reading a list view's items needs the tree helper to read this
 *     process's memory, which Wine's server, inside the desktop's Landlock domain, may not do for a
 *     program the controller started outside it.)
 *   - the taskbar (class Shell_TrayWnd), always on top along the bottom, with a "Start" button, a
 *     button for each open app window (named by its title, pressed for the active one; a click
 *     brings that window to the front, restoring it if minimised, or minimises the active one), and
 *     a clock (class TrayClockWClass, a Static) showing the local time and date -- the task's,
 *     since the desktop's programs run under the task clock's libfaketime -- updated every second.
 *     (The strip it stands on is reserved for it by an X dock window with a strut: shell.py.)
 *   - the Start menu (class DwStartMenu), a popup above the button listing the apps as buttons:
 *     Notepad, WordPad, File Explorer, Command Prompt. Its items are real child windows, so the
 *     element list shows them (a Win32 popup menu's items would not be in the tree).
 *
 * Every window is shown without activation, so Wine leaves them unmanaged by the X window manager
 * (no frames, not in the window list) and apps keep the focus. When all are shown it writes
 * C:\windows\temp\dw-shell.ready (Wine's own folder, not the task's state) for the device to wait on.
 */
#ifndef UNICODE
#define UNICODE
#endif
#ifndef _UNICODE
#define _UNICODE
#endif
#include <windows.h>
#include <commctrl.h>
#include <shellapi.h>
#include <stdio.h>
#include <wchar.h>

#define BAR_H 36
#define ID_START 100
#define ID_CLOCK 101
#define ID_APP0 200
#define ID_TASK0 300
#define MAX_TASKS 16
#define READY_FILE L"C:\\windows\\temp\\dw-shell.ready"
#define ACTIVATE_FILE L"C:\\windows\\temp\\dw-activate"

static const COLORREF DESKTOP_BLUE = RGB(0x1E, 0x5A, 0x96);
static const COLORREF BAR_GREY = RGB(0x20, 0x24, 0x2A);

static HWND g_desktop, g_bar, g_menu, g_clock;
static HBRUSH g_desktop_brush, g_bar_brush, g_select_brush;
static HICON g_folder_icon;
static WCHAR g_profile[MAX_PATH] = L"C:\\users\\user";
static int g_cx, g_cy;
static HWND g_task_win[MAX_TASKS], g_task_btn[MAX_TASKS]; /* the window list: button i stands for window i */
static int g_n_tasks;

struct app { const WCHAR *label; const WCHAR *cmd; DWORD flags; };
static const struct app APPS[] = {
    {L"Notepad", L"notepad.exe", 0},
    {L"WordPad", L"\"C:\\Program Files\\Windows NT\\Accessories\\wordpad.exe\"", 0},
    {L"File Explorer", L"explorer.exe", 0},
    {L"Command Prompt", L"cmd.exe", CREATE_NEW_CONSOLE},
};
#define N_APPS (sizeof(APPS) / sizeof(APPS[0]))

static const WCHAR *FOLDERS[] = {L"", L"Documents", L"Downloads", L"Pictures", L"Desktop"};
#define N_FOLDERS (sizeof(FOLDERS) / sizeof(FOLDERS[0]))

static void start(const WCHAR *cmd, DWORD flags)
{
    WCHAR line[1024];
    STARTUPINFOW si;
    PROCESS_INFORMATION pi;
    ZeroMemory(&si, sizeof(si));
    si.cb = sizeof(si);
    lstrcpynW(line, cmd, 1024);
    if (CreateProcessW(NULL, line, NULL, NULL, FALSE, flags, NULL, g_profile, &si, &pi)) {
        CloseHandle(pi.hThread);
        CloseHandle(pi.hProcess);
    }
}

static void open_folder(int i)
{
    WCHAR cmd[1024];
    if (i < 0 || i >= (int)N_FOLDERS) return;
    if (FOLDERS[i][0])
        swprintf(cmd, 1024, L"explorer.exe \"%ls\\%ls\"", g_profile, FOLDERS[i]);
    else
        swprintf(cmd, 1024, L"explorer.exe \"%ls\"", g_profile);
    start(cmd, 0);
}

static void update_clock(void)
{
    SYSTEMTIME t;
    WCHAR text[64], old[64];
    int h;
    GetLocalTime(&t);
    h = t.wHour % 12 ? t.wHour % 12 : 12;
    swprintf(text, 64, L"%d:%02d %ls  %d/%d/%d", h, t.wMinute, t.wHour < 12 ? L"AM" : L"PM", t.wMonth, t.wDay,
             t.wYear);
    GetWindowTextW(g_clock, old, 64);
    if (lstrcmpW(old, text)) SetWindowTextW(g_clock, text);
}

struct tasks { HWND win[MAX_TASKS]; int n; };

static BOOL CALLBACK collect_task(HWND hwnd, LPARAM lp)
{ /* an app window as a taskbar lists it: visible, titled, not a tool window, owned only if an app window */
    struct tasks *t = (struct tasks *)lp;
    LONG ex = GetWindowLongW(hwnd, GWL_EXSTYLE);
    DWORD pid = 0;
    if (t->n >= MAX_TASKS) return FALSE;
    if (!IsWindowVisible(hwnd) || GetWindowTextLengthW(hwnd) == 0 || (ex & WS_EX_TOOLWINDOW)) return TRUE;
    if (GetWindow(hwnd, GW_OWNER) && !(ex & WS_EX_APPWINDOW)) return TRUE;
    GetWindowThreadProcessId(hwnd, &pid);
    if (pid != GetCurrentProcessId()) t->win[t->n++] = hwnd;
    return TRUE;
}

static BOOL listed(const HWND *list, int n, HWND hwnd)
{
    int i;
    for (i = 0; i < n; i++)
        if (list[i] == hwnd) return TRUE;
    return FALSE;
}

static void update_tasks(void)
{ /* windows keep their place in the list (new ones at the end); a button changes only when its window does */
    struct tasks now;
    HWND next[MAX_TASKS], active = GetForegroundWindow();
    WCHAR title[256], old[256];
    int i, n = 0, w, left = 80, room = g_cx - 176 - 80;
    now.n = 0;
    EnumWindows(collect_task, (LPARAM)&now);
    for (i = 0; i < g_n_tasks; i++)
        if (listed(now.win, now.n, g_task_win[i])) next[n++] = g_task_win[i];
    for (i = 0; i < now.n && n < MAX_TASKS; i++)
        if (!listed(next, n, now.win[i])) next[n++] = now.win[i];
    w = n ? room / n - 4 : 0;
    if (w > 160) w = 160;
    for (i = 0; i < MAX_TASKS; i++) {
        if (i >= n) {
            if (g_task_btn[i]) DestroyWindow(g_task_btn[i]);
            g_task_btn[i] = NULL;
            g_task_win[i] = NULL;
            continue;
        }
        g_task_win[i] = next[i];
        GetWindowTextW(next[i], title, 256);
        if (!g_task_btn[i]) {
            g_task_btn[i] = CreateWindowExW(0, L"BUTTON", title, WS_CHILD | BS_PUSHBUTTON, 0, 0, 0, 0, g_bar,
                                            (HMENU)(INT_PTR)(ID_TASK0 + i), GetModuleHandleW(NULL), NULL);
            SendMessageW(g_task_btn[i], WM_SETFONT, (WPARAM)GetStockObject(DEFAULT_GUI_FONT), FALSE);
        }
        GetWindowTextW(g_task_btn[i], old, 256);
        if (lstrcmpW(old, title)) SetWindowTextW(g_task_btn[i], title);
        SetWindowPos(g_task_btn[i], NULL, left + i * (w + 4), 3, w, BAR_H - 6,
                     SWP_NOZORDER | SWP_NOACTIVATE | SWP_SHOWWINDOW);
        if (((SendMessageW(g_task_btn[i], BM_GETSTATE, 0, 0) & BST_PUSHED) != 0) != (next[i] == active))
            SendMessageW(g_task_btn[i], BM_SETSTATE, next[i] == active, 0);
    }
    g_n_tasks = n;
}

static void ask_activate(HWND hwnd)
{ /* the X window manager decides focus: shell.py's X side asks it for us, as a pager does (Wine's own
     SetForegroundWindow from this unmanaged process leaves the X focus where it was) */
    HANDLE xid = GetPropW(hwnd, L"__wine_x11_whole_window");
    char text[32];
    DWORD n;
    HANDLE f;
    if (!xid) return;
    n = (DWORD)snprintf(text, sizeof(text), "%lu\n", (unsigned long)(ULONG_PTR)xid);
    f = CreateFileW(ACTIVATE_FILE L".tmp", GENERIC_WRITE, 0, NULL, CREATE_ALWAYS, FILE_ATTRIBUTE_NORMAL, NULL);
    if (f == INVALID_HANDLE_VALUE) return;
    WriteFile(f, text, n, &n, NULL);
    CloseHandle(f);
    MoveFileExW(ACTIVATE_FILE L".tmp", ACTIVATE_FILE, MOVEFILE_REPLACE_EXISTING);
}

static void switch_to(int i)
{ /* as a taskbar button: the active window minimises, another comes to the front (restored if minimised) */
    HWND hwnd = i >= 0 && i < g_n_tasks ? g_task_win[i] : NULL;
    if (!hwnd || !IsWindow(hwnd)) return;
    if (hwnd == GetForegroundWindow() && !IsIconic(hwnd)) {
        ShowWindowAsync(hwnd, SW_MINIMIZE);
    } else {
        if (IsIconic(hwnd)) ShowWindowAsync(hwnd, SW_RESTORE);
        SetForegroundWindow(hwnd);
        ask_activate(hwnd);
    }
    update_tasks();
}

static void show_menu(BOOL show)
{
    if (show) {
        SetWindowPos(g_menu, HWND_TOPMOST, 0, g_cy - BAR_H - (int)N_APPS * 34 - 8, 0, 0,
                     SWP_NOSIZE | SWP_NOACTIVATE | SWP_SHOWWINDOW);
    } else {
        ShowWindow(g_menu, SW_HIDE);
    }
}

/* What every window of the shell does alike, after its own messages: none takes the focus
   from an app when clicked, and each paints its background with its brush (an icon paints its
   own, in WM_PAINT). */
static LRESULT shell_default(HWND hwnd, UINT msg, WPARAM wp, LPARAM lp, HBRUSH brush)
{
    switch (msg) {
    case WM_MOUSEACTIVATE:
        return MA_NOACTIVATE;
    case WM_ERASEBKGND: {
        RECT r;
        GetClientRect(hwnd, &r);
        FillRect((HDC)wp, &r, brush);
        return 1;
    }
    }
    return DefWindowProcW(hwnd, msg, wp, lp);
}

static LRESULT CALLBACK desktop_proc(HWND hwnd, UINT msg, WPARAM wp, LPARAM lp)
{
    switch (msg) {
    case WM_WINDOWPOSCHANGING: {
        WINDOWPOS *pos = (WINDOWPOS *)lp;
        pos->hwndInsertAfter = HWND_BOTTOM; /* the desktop stays below every app */
        pos->flags |= SWP_NOACTIVATE;
        return 0;
    }
    case WM_LBUTTONDOWN:
        show_menu(FALSE);
        return 0;
    case WM_CLOSE:
        return 0; /* the desktop is not closed by Alt+F4 */
    }
    return shell_default(hwnd, msg, wp, lp, g_desktop_brush);
}

static LRESULT CALLBACK bar_proc(HWND hwnd, UINT msg, WPARAM wp, LPARAM lp)
{
    switch (msg) {
    case WM_CTLCOLORSTATIC:
        SetTextColor((HDC)wp, RGB(255, 255, 255));
        SetBkColor((HDC)wp, BAR_GREY);
        return (LRESULT)g_bar_brush;
    case WM_COMMAND:
        if (LOWORD(wp) == ID_START) show_menu(!IsWindowVisible(g_menu));
        else if (LOWORD(wp) >= ID_TASK0 && LOWORD(wp) < ID_TASK0 + MAX_TASKS) switch_to(LOWORD(wp) - ID_TASK0);
        return 0;
    case WM_TIMER:
        if (wp == 2) update_tasks();
        else update_clock();
        return 0;
    case WM_CLOSE:
        return 0;
    }
    return shell_default(hwnd, msg, wp, lp, g_bar_brush);
}

static LRESULT CALLBACK menu_proc(HWND hwnd, UINT msg, WPARAM wp, LPARAM lp)
{
    switch (msg) {
    case WM_COMMAND: {
        int i = LOWORD(wp) - ID_APP0;
        if (i >= 0 && i < (int)N_APPS) {
            show_menu(FALSE);
            start(APPS[i].cmd, APPS[i].flags);
        }
        return 0;
    }
    case WM_CLOSE:
        ShowWindow(hwnd, SW_HIDE);
        return 0;
    }
    return shell_default(hwnd, msg, wp, lp, g_bar_brush);
}

static ATOM klass(const WCHAR *name, WNDPROC proc, HINSTANCE inst)
{
    WNDCLASSW wc;
    ZeroMemory(&wc, sizeof(wc));
    wc.lpfnWndProc = proc;
    wc.hInstance = inst;
    wc.hCursor = LoadCursorW(NULL, (LPCWSTR)IDC_ARROW);
    wc.lpszClassName = name;
    return RegisterClassW(&wc);
}

static LRESULT CALLBACK icon_proc(HWND hwnd, UINT msg, WPARAM wp, LPARAM lp)
{
    switch (msg) {
    case WM_LBUTTONDOWN: { /* one click selects, as on a desktop */
        HWND other;
        show_menu(FALSE);
        for (other = GetWindow(g_desktop, GW_CHILD); other; other = GetWindow(other, GW_HWNDNEXT)) {
            if (GetWindowLongPtrW(other, GWLP_USERDATA) & 0x100) {
                SetWindowLongPtrW(other, GWLP_USERDATA, GetWindowLongPtrW(other, GWLP_USERDATA) & 0xff);
                InvalidateRect(other, NULL, TRUE);
            }
        }
        SetWindowLongPtrW(hwnd, GWLP_USERDATA, GetWindowLongPtrW(hwnd, GWLP_USERDATA) | 0x100);
        InvalidateRect(hwnd, NULL, TRUE);
        return 0;
    }
    case WM_LBUTTONDBLCLK: /* a double click opens the folder in Explorer */
        open_folder((int)(GetWindowLongPtrW(hwnd, GWLP_USERDATA) & 0xff));
        return 0;
    case WM_ERASEBKGND:
        return 1;
    case WM_PAINT: {
        PAINTSTRUCT ps;
        RECT r, label;
        WCHAR text[MAX_PATH];
        HDC dc = BeginPaint(hwnd, &ps);
        BOOL selected = (GetWindowLongPtrW(hwnd, GWLP_USERDATA) & 0x100) != 0;
        GetClientRect(hwnd, &r);
        FillRect(dc, &r, selected ? g_select_brush : g_desktop_brush);
        if (g_folder_icon) DrawIconEx(dc, (r.right - 32) / 2, 6, g_folder_icon, 32, 32, 0, NULL, DI_NORMAL);
        GetWindowTextW(hwnd, text, MAX_PATH);
        SetBkMode(dc, TRANSPARENT);
        SetTextColor(dc, RGB(255, 255, 255));
        SelectObject(dc, GetStockObject(DEFAULT_GUI_FONT));
        label = r;
        label.top = 42;
        DrawTextW(dc, text, -1, &label, DT_CENTER | DT_WORDBREAK | DT_END_ELLIPSIS);
        EndPaint(hwnd, &ps);
        return 0;
    }
    }
    return shell_default(hwnd, msg, wp, lp, g_desktop_brush);
}

static void add_icons(HINSTANCE inst)
{
    int i;
    g_folder_icon = ExtractIconW(inst, L"shell32.dll", -4); /* IDI_SHELL_FOLDER */
    if (g_folder_icon == (HICON)1) g_folder_icon = NULL;
    for (i = 0; i < (int)N_FOLDERS; i++) {
        HWND icon;
        const WCHAR *name = FOLDERS[i];
        if (!name[0]) { /* the home folder: the user's name, as Windows shows it */
            const WCHAR *slash = wcsrchr(g_profile, L'\\');
            name = slash ? slash + 1 : g_profile;
        }
        icon = CreateWindowExW(0, L"DesktopIcon", name, WS_CHILD | WS_VISIBLE, 12, 12 + i * 88, 84, 80, g_desktop,
                               NULL, inst, NULL);
        SetWindowLongPtrW(icon, GWLP_USERDATA, i);
    }
}

int WINAPI wWinMain(HINSTANCE inst, HINSTANCE prev, LPWSTR args, int show)
{
    INITCOMMONCONTROLSEX icc = {sizeof(icc), ICC_STANDARD_CLASSES};
    HFONT font = (HFONT)GetStockObject(DEFAULT_GUI_FONT);
    MSG msg;
    HWND start_btn;
    HANDLE ready;
    DWORD n;
    int i;
    (void)prev;
    (void)args;
    (void)show;
    InitCommonControlsEx(&icc);
    n = GetEnvironmentVariableW(L"USERPROFILE", g_profile, MAX_PATH);
    if (n == 0 || n >= MAX_PATH) lstrcpyW(g_profile, L"C:\\users\\user");
    g_cx = GetSystemMetrics(SM_CXSCREEN);
    g_cy = GetSystemMetrics(SM_CYSCREEN);
    g_desktop_brush = CreateSolidBrush(DESKTOP_BLUE);
    g_bar_brush = CreateSolidBrush(BAR_GREY);
    g_select_brush = CreateSolidBrush(RGB(0x3C, 0x82, 0xC8));
    klass(L"Progman", desktop_proc, inst);
    klass(L"Shell_TrayWnd", bar_proc, inst);
    klass(L"DwStartMenu", menu_proc, inst);
    {
        WNDCLASSW wc;
        ZeroMemory(&wc, sizeof(wc));
        wc.style = CS_DBLCLKS;
        wc.lpfnWndProc = icon_proc;
        wc.hInstance = inst;
        wc.hCursor = LoadCursorW(NULL, (LPCWSTR)IDC_ARROW);
        wc.lpszClassName = L"DesktopIcon";
        RegisterClassW(&wc);
    }

    g_desktop = CreateWindowExW(WS_EX_TOOLWINDOW | WS_EX_NOACTIVATE, L"Progman", L"Program Manager",
                                WS_POPUP | WS_CLIPCHILDREN, 0, 0, g_cx, g_cy - BAR_H, NULL, NULL, inst, NULL);
    add_icons(inst);

    g_bar = CreateWindowExW(WS_EX_TOOLWINDOW | WS_EX_TOPMOST | WS_EX_NOACTIVATE, L"Shell_TrayWnd", L"",
                            WS_POPUP | WS_CLIPCHILDREN, 0, g_cy - BAR_H, g_cx, BAR_H, NULL, NULL, inst, NULL);
    start_btn = CreateWindowExW(0, L"BUTTON", L"Start", WS_CHILD | WS_VISIBLE | BS_PUSHBUTTON, 2, 3, 72,
                                BAR_H - 6, g_bar, (HMENU)ID_START, inst, NULL);
    g_clock = CreateWindowExW(0, L"STATIC", L"", WS_CHILD | WS_VISIBLE | SS_CENTER | SS_CENTERIMAGE,
                              g_cx - 170, 0, 166, BAR_H, g_bar, (HMENU)ID_CLOCK, inst, NULL);
    SendMessageW(start_btn, WM_SETFONT, (WPARAM)font, TRUE);
    SendMessageW(g_clock, WM_SETFONT, (WPARAM)font, TRUE);
    update_clock();
    SetTimer(g_bar, 1, 1000, NULL);
    update_tasks();
    SetTimer(g_bar, 2, 200, NULL); /* the window list follows the apps within a fifth of a second */

    g_menu = CreateWindowExW(WS_EX_TOOLWINDOW | WS_EX_TOPMOST | WS_EX_NOACTIVATE, L"DwStartMenu", L"Start",
                             WS_POPUP | WS_BORDER, 0, 0, 200, (int)N_APPS * 34 + 8, NULL, NULL, inst, NULL);
    for (i = 0; i < (int)N_APPS; i++) {
        HWND b = CreateWindowExW(0, L"BUTTON", APPS[i].label, WS_CHILD | WS_VISIBLE | BS_PUSHBUTTON, 4,
                                 4 + i * 34, 190, 30, g_menu, (HMENU)(INT_PTR)(ID_APP0 + i), inst, NULL);
        SendMessageW(b, WM_SETFONT, (WPARAM)font, TRUE);
    }

    SetWindowPos(g_desktop, HWND_BOTTOM, 0, 0, 0, 0, SWP_NOMOVE | SWP_NOSIZE | SWP_NOACTIVATE | SWP_SHOWWINDOW);
    SetWindowPos(g_bar, HWND_TOPMOST, 0, 0, 0, 0, SWP_NOMOVE | SWP_NOSIZE | SWP_NOACTIVATE | SWP_SHOWWINDOW);
    UpdateWindow(g_desktop);
    UpdateWindow(g_bar);
    ready = CreateFileW(READY_FILE, GENERIC_WRITE, 0, NULL, CREATE_ALWAYS, FILE_ATTRIBUTE_NORMAL, NULL);
    if (ready != INVALID_HANDLE_VALUE) CloseHandle(ready);

    while (GetMessageW(&msg, NULL, 0, 0) > 0) {
        TranslateMessage(&msg);
        DispatchMessageW(&msg);
    }
    return 0;
}
