# ruff: noqa: RUF001, RUF002  (the real keypad shows the minus, times and divide signs)
"""Calculator: a keypad, a formula line and a result; ``=`` stores the result the app shows.

The formula is evaluated by a tiny arithmetic evaluator over Python's AST (numbers,
+ − × ÷, parentheses, unary minus) — never ``eval``.
"""

from __future__ import annotations

import ast
import operator
from collections.abc import Callable
from functools import partial

from devicesworld.devices.android.apps.base import App, Screen
from devicesworld.devices.android.ui import view as v
from devicesworld.devices.android.ui.view import View

PACKAGE = "com.google.android.calculator"
KEYS = ("7", "8", "9", "÷", "4", "5", "6", "×", "1", "2", "3", "−", "0", ".", "=", "+")
KEY_IDS = {"=": "eq", "×": "op_mul", "÷": "op_div", "−": "op_sub", "+": "op_add", ".": "dec_point"}
_OPS: dict[type, Callable[[float, float], float]] = {
    ast.Add: operator.add,
    ast.Sub: operator.sub,
    ast.Mult: operator.mul,
    ast.Div: operator.truediv,
}


def evaluate(formula: str) -> float:
    """Evaluate an arithmetic formula; ValueError/ZeroDivisionError when it is not one."""
    expr = formula.replace("×", "*").replace("÷", "/").replace("−", "-")
    tree = ast.parse(expr, mode="eval")

    def ev(node: ast.AST) -> float:
        if isinstance(node, ast.Expression):
            return ev(node.body)
        if isinstance(node, ast.Constant) and isinstance(node.value, int | float):
            return float(node.value)
        if isinstance(node, ast.BinOp) and type(node.op) in _OPS:
            return _OPS[type(node.op)](ev(node.left), ev(node.right))
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
            return -ev(node.operand)
        raise ValueError("not arithmetic")

    return ev(tree)


def show(x: float) -> str:
    return str(int(x)) if x == int(x) and abs(x) < 1e15 else f"{x:.10g}"


class CalculatorApp(App):
    package = PACKAGE
    label_key = "app.calculator"

    def screen_main(self, screen: Screen) -> View:
        st = screen.state
        formula = str(st.get("formula", ""))

        def press(key: str) -> None:
            if key == "=":
                try:
                    result = show(evaluate(str(st.get("formula", ""))))
                except (ValueError, SyntaxError, ZeroDivisionError):
                    st["result"] = self.t("calc.error")
                    return
                st["formula"] = result
                st["result"] = ""
                self.storage.put_pref(PACKAGE, "last_result", result)
                return
            st["formula"] = str(st.get("formula", "")) + key
            try:
                st["result"] = show(evaluate(st["formula"]))
            except (ValueError, SyntaxError, ZeroDivisionError):
                st["result"] = ""

        def clear() -> None:
            st["formula"], st["result"] = "", ""

        def backspace() -> None:
            st["formula"] = str(st.get("formula", ""))[:-1]

        descs = {
            "=": self.t("calc.equals"),
            "×": "multiply",
            "÷": "divide",
            "−": "minus",
            "+": "plus",
            ".": "point",
        }
        rows = [
            v.row(
                *[
                    View(
                        v.BUTTON,
                        text=k,
                        content_description=descs.get(k, k),
                        on_click=partial(press, k),
                        resource_id=self.rid(KEY_IDS.get(k, f"digit_{k}")),
                        height=72,
                        style="primary" if k == "=" else "",
                    )
                    for k in KEYS[i : i + 4]
                ],
                height=72,
            )
            for i in range(0, 16, 4)
        ]
        top: list[tuple[str, str, Callable[[], None], str]] = [
            ("C", self.t("calc.clear"), clear, "clr"),
            ("(", "", partial(press, "("), "lparen"),
            (")", "", partial(press, ")"), "rparen"),
            ("⌫", self.t("calc.backspace"), backspace, "del"),
        ]
        return self.page(
            v.text(formula, rid=self.rid("formula"), height=72, style="headline"),
            v.text(str(st.get("result", "")), rid=self.rid("result_preview"), height=48, style="dim"),
            v.row(
                *[
                    View(
                        v.BUTTON,
                        text=k,
                        content_description=desc,
                        on_click=fn,
                        resource_id=self.rid(rid),
                        height=56,
                    )
                    for k, desc, fn, rid in top
                ],
                height=56,
            ),
            v.column(*rows, fill=True),
        )
