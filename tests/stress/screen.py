"""A small terminal emulator: enough of what Textual writes to know what a screen shows.

Cursor moves (CUP, CHA, CUU/CUD/CUF/CUB), erase in line and display, carriage return,
line feed and printable text; colours, modes and other sequences are read and ignored.
"""

from __future__ import annotations

import re

_CSI = re.compile(rb"\x1b\[([0-9;?<=>]*)([ -/]*)([@-~])")
_OSC = re.compile(rb"\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)")


class Screen:
    def __init__(self, rows: int = 24, cols: int = 80) -> None:
        self.rows, self.cols = rows, cols
        self.grid = [[" "] * cols for _ in range(rows)]
        self.y = self.x = 0
        self._pending = b""

    def feed(self, data: bytes) -> None:
        data = self._pending + data
        self._pending = b""
        i = 0
        text = bytearray()
        while i < len(data):
            b = data[i]
            if b == 0x1B:
                self._text(text)
                text.clear()
                m = _CSI.match(data, i)
                if m:
                    self._csi(m.group(1).decode(), m.group(3).decode())
                    i = m.end()
                    continue
                m = _OSC.match(data, i)
                if m:
                    i = m.end()
                    continue
                if i + 1 >= len(data) or (data[i + 1:i + 2] in (b"[", b"]")):
                    self._pending = data[i:]  # a sequence cut by the read: wait for the rest
                    return
                i += 2  # ESC 7, ESC 8, ESC = ...
                continue
            if b in (0x0D, 0x0A, 0x08):
                self._text(text)
                text.clear()
                if b == 0x0D:
                    self.x = 0
                elif b == 0x0A:
                    self.y = min(self.y + 1, self.rows - 1)
                else:
                    self.x = max(0, self.x - 1)
                i += 1
                continue
            if b < 0x20:
                i += 1
                continue
            text.append(b)
            i += 1
        if text:
            # keep an incomplete UTF-8 character for the next read
            cut = len(text)
            while cut > 0 and (text[cut - 1] & 0xC0) == 0x80:
                cut -= 1
            if cut > 0 and text[cut - 1] >= 0xC0:
                need = 2 if text[cut - 1] < 0xE0 else 3 if text[cut - 1] < 0xF0 else 4
                if len(text) - (cut - 1) < need:
                    self._pending = bytes(text[cut - 1:])
                    text = text[: cut - 1]
            self._text(text)

    def _text(self, raw: bytes | bytearray) -> None:
        for ch in bytes(raw).decode("utf-8", "replace"):
            if self.x >= self.cols:
                continue
            self.grid[self.y][self.x] = ch
            self.x += 1

    def _csi(self, params: str, final: str) -> None:
        if params.startswith("?") or params.startswith(">") or params.startswith("<"):
            return
        nums = [int(p) if p.isdigit() else 0 for p in params.split(";")] if params else []

        def n(i: int, default: int = 1) -> int:
            return nums[i] if len(nums) > i and nums[i] else default

        if final in "Hf":
            self.y = min(max(n(0) - 1, 0), self.rows - 1)
            self.x = min(max(n(1) - 1, 0), self.cols - 1)
        elif final == "G":
            self.x = min(max(n(0) - 1, 0), self.cols - 1)
        elif final == "A":
            self.y = max(0, self.y - n(0))
        elif final == "B":
            self.y = min(self.rows - 1, self.y + n(0))
        elif final == "C":
            self.x = min(self.cols - 1, self.x + n(0))
        elif final == "D":
            self.x = max(0, self.x - n(0))
        elif final == "K":
            mode = nums[0] if nums else 0
            row = self.grid[self.y]
            lo, hi = {0: (self.x, self.cols), 1: (0, self.x + 1), 2: (0, self.cols)}.get(
                mode, (0, 0))
            for k in range(lo, hi):
                row[k] = " "
        elif final == "J":
            mode = nums[0] if nums else 0
            if mode in (2, 3):
                self.grid = [[" "] * self.cols for _ in range(self.rows)]

    def lines(self) -> list[str]:
        return ["".join(row).rstrip() for row in self.grid]
