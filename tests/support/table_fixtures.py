"""Ruled tables written for the tests and bench/tables.py, drawn into a PDF with their true structure.

Each table is given as its rows of cells, each cell with the lines it prints and the rows and columns
it spans; the gold text of a cell is its lines joined (all the text is CJK or single-line, so joining
needs no spaces). The patterns are those a reader gets wrong when it cuts rows at text lines: cells of
several lines, row-spanning cells, vertical labels written one character per line, full-width title and
note rows, column spans, a table continued on the next page, and a table of one column under its
caption. Two framed drawings that are not tables (a title block and a flowchart) come with them. All text
is written for this project.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from fpdf import FPDF

CJK_FONTS = (
    Path("/usr/share/fonts/truetype/arphic/uming.ttc"),
    Path("/usr/share/fonts/truetype/wqy/wqy-microhei.ttc"),
    Path("/usr/share/fonts/truetype/wqy/wqy-zenhei.ttc"),
    Path("/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc"),
    Path("/usr/share/fonts/truetype/arphic-gbsn00lp/gbsn00lp.ttf"),
)

SIZE = 9.0  # pt, the text of the cells
PT = 25.4 / 72  # mm per pt
LINE = SIZE * PT * 1.35  # mm between two text lines of a cell
ROW = 6.5  # mm, the height of a one-line grid row


@dataclass(frozen=True)
class GoldCell:
    lines: tuple[str, ...]
    rows: int = 1
    cols: int = 1
    vertical: bool = False  # one character per line, centred in the box

    @property
    def text(self) -> str:
        return "".join(self.lines)


def c(text: str = "", rows: int = 1, cols: int = 1) -> GoldCell:
    """A cell; "/" in the text breaks it into printed lines."""
    return GoldCell(tuple(text.split("/")) if text else (), rows, cols)


def v(text: str, rows: int) -> GoldCell:
    """A vertical label: one character per printed line."""
    return GoldCell(tuple(text), rows, 1, vertical=True)


@dataclass(frozen=True)
class GoldTable:
    name: str
    caption: str
    widths: tuple[float, ...]  # mm per column
    rows: tuple[tuple[GoldCell, ...], ...]
    continued: bool = False
    heights: dict[int, float] = field(default_factory=dict)  # mm, rows taller than one line

    @property
    def columns(self) -> int:
        return len(self.widths)

    def grid(self) -> list[list[str | None]]:
        """Text at the grid position where each cell starts, None where a span covers it."""
        out: list[list[str | None]] = [[None] * self.columns for _ in self.rows]
        taken = [[False] * self.columns for _ in self.rows]
        for r, row in enumerate(self.rows):
            col = 0
            for cell in row:
                while taken[r][col]:
                    col += 1
                out[r][col] = cell.text
                for rr in range(r, r + cell.rows):
                    for cc in range(col, col + cell.cols):
                        taken[rr][cc] = True
                col += cell.cols
        return out


SPANS = GoldTable(
    "row spans and multi-line cells",
    "表1　检测项目与方法",
    (18, 40, 40, 62),
    (
        (c("序号"), c("项目"), c("子项"), c("方法说明")),
        (c("1"), c("外观/检查", rows=3), c("颜色"), c("在自然光下目视检查，/颜色应均匀一致。")),
        (c("2"), c("标志"), c("目视检查。")),
        (c("3"), c("包装"), c("按订货合同的约定/逐件检查，并记录/检查结果。")),
        (c("4"), c("尺寸"), c("长度"), c("用卷尺测量。")),
    ),
)

VERTICAL = GoldTable(
    "vertical label",
    "表2　数据帧的组成",
    (16, 14, 50, 80),
    (
        (c("序号"), c("名称", cols=2), c("说明")),
        (c("1"), v("帧头", rows=5), c("起始标志"), c("固定为两个字节。")),
        (c("2"), c("设备地址"), c("")),
        (c("3"), c("命令类别"), c("见附录说明。")),
        (c("4"), c("数据长度"), c("")),
        (c("5"), c("流水编号"), c("每发送一帧加一。")),
        (c("6"), c("数据内容", cols=2), c("长度可变。")),
        (c("7"), c("校验", cols=2), c("")),
    ),
)

FULL_WIDTH = GoldTable(
    "full-width title, note and footnote rows",
    "表3　仪器编号的组成",
    (30, 30, 30, 30, 40),
    (
        (c("仪器编号的五个部分", cols=5),),
        (c("第一部分"), c("第二部分"), c("第三部分"), c("第四部分"), c("第五部分")),
        (c("类别代码"), c("地区代码", cols=3), c("顺序号")),
        (
            c(
                "注：类别代码按附录甲的规定填写，地区代码取所在地的行政区划代码，/顺序号由发放单位按登记先后编排。",
                cols=5,
            ),
        ),
        (c("a 顺序号不足四位时在左侧补零。", cols=5),),
    ),
)

COLUMN_SPAN = GoldTable(
    "column spans under a row-spanning label",
    "表4　状态字节的含义",
    (24, 20, 20, 20, 20, 20, 20),
    (
        (c("首字节"), c("表示后续字节的个数", cols=6)),
        (c("次字节", rows=2), c("B0"), c("B1"), c("B2"), c("B3"), c("B4"), c("B5")),
        (
            c("一号门/开关"),
            c("二号门/开关"),
            c("三号门/开关"),
            c("四号门/开关"),
            c("五号门/开关"),
            c("六号门/开关"),
        ),
    ),
)

CONTINUED_FIRST = GoldTable(
    "continued table, first page",
    "表5　报文正文的结构",
    (16, 40, 50, 60),
    (
        (c("序号"), c("名称"), c("结构"), c("说明")),
        (c("1"), c("流水号"), c("流水号"), c("两字节编码。")),
        # the first line of the last cell is a little too wide: its comma hangs over the table's border
        (
            c("2"),
            c("发送时间"),
            c("发送时间"),
            c("发送时间按年月日时分秒顺序编为六字节，/不足两位的左侧补零。"),
        ),
    ),
)

CONTINUED_NEXT = GoldTable(
    "continued table, next page, merged cells",
    "表5　报文正文的结构（续）",
    (16, 40, 50, 60),
    (
        (c("序号"), c("名称"), c("结构"), c("说明")),
        (c("3", rows=2), c("站点地址", rows=2), c("地址标识"), c("")),
        (c("站点地址"), c("编码规则见正文。")),
        (c("4", rows=3), c("观测要素/信息组", rows=3), c("要素标识一"), c("见附录乙、丙", rows=2)),
        (c("数据一"),),
        (c("……"), c("可选，/长度不定。")),
    ),
    continued=True,
)

ONE_COLUMN = GoldTable(
    "one column under its caption",
    "表6　应答帧的组成",
    (110,),
    ((c("起始标志"),), (c("设备地址"),), (c("错误代码（两字节）"),), (c("校验码"),)),
)

TABLES = (SPANS, VERTICAL, FULL_WIDTH, COLUMN_SPAN, CONTINUED_FIRST, CONTINUED_NEXT, ONE_COLUMN)
PAGES = ((SPANS, VERTICAL), (FULL_WIDTH, COLUMN_SPAN, CONTINUED_FIRST), (CONTINUED_NEXT, ONE_COLUMN))


def font() -> Path | None:
    return next((f for f in CJK_FONTS if f.exists()), None)


class _Drawer:
    LEFT = 25.0

    def __init__(self, font_path: Path) -> None:
        self.pdf = FPDF(unit="mm", format="A4")
        self.pdf.set_auto_page_break(False)
        self.pdf.add_font("cjk", "", str(font_path))  # the first font of a collection
        self.y = 30.0

    def page(self) -> None:
        self.pdf.add_page()
        self.y = 30.0

    def text(self, x: float, baseline: float, text: str, size: float = SIZE) -> None:
        self.pdf.set_font("cjk", size=size)
        self.pdf.text(x, baseline, text)

    def caption(self, caption: str) -> None:
        self.pdf.set_font("cjk", size=10.5)
        width = self.pdf.get_string_width(caption)
        self.text(self.LEFT + (160 - width) / 2, self.y + 10.5 * PT, caption, size=10.5)
        self.y += 10.5 * PT * 1.8

    def heights(self, table: GoldTable) -> list[float]:
        """Row heights: enough for the lines of each one-row cell (spanning cells are made to fit)."""
        out = [ROW] * len(table.rows)
        for r, row in enumerate(table.rows):
            for cell in row:
                if cell.rows == 1 and not cell.vertical:
                    out[r] = max(out[r], len(cell.lines) * LINE + 2.5)
        placed = _places(table)
        for (r, _), cell in placed.items():
            need = len(cell.lines) * LINE + 2.5
            have = sum(out[r : r + cell.rows])
            if need > have:
                out[r + cell.rows - 1] += need - have
        return out

    def table(self, table: GoldTable, *, caption: bool = True) -> None:
        if caption:
            self.caption(table.caption)
        else:
            self.y += 4
        heights = self.heights(table)
        tops = [self.y + sum(heights[:r]) for r in range(len(heights))]
        lefts = [self.LEFT + sum(table.widths[:k]) for k in range(table.columns)]
        self.pdf.set_line_width(0.2)
        for (r, col), cell in _places(table).items():
            x, y = lefts[col], tops[r]
            w = sum(table.widths[col : col + cell.cols])
            h = sum(heights[r : r + cell.rows])
            self.pdf.rect(x, y, w, h)
            block = len(cell.lines) * LINE
            first = y + (h - block) / 2 + SIZE * PT * 0.85
            self.pdf.set_font("cjk", size=SIZE)
            for k, line in enumerate(cell.lines):
                dx = (w - self.pdf.get_string_width(line)) / 2 if cell.vertical else 1.2
                self.text(x + dx, first + k * LINE, line)
        self.y += sum(heights) + 6

    def title_block(self) -> None:
        """A framed one-column block, as an annex title is sometimes boxed: not a table."""
        self.pdf.rect(self.LEFT + 30, self.y, 100, 22)
        self.text(self.LEFT + 40, self.y + 8, "附录甲")
        self.text(self.LEFT + 40, self.y + 16, "（资料性）　试验记录的格式")
        self.y += 30

    def flowchart(self) -> None:
        """Labelled boxes joined by arrows, one running down into the box below: a figure, not a table
        (the arrow's stem meets that box's border as a column rule would)."""
        for k, label in enumerate(("取样", "称量", "记录")):
            x = self.LEFT + 10 + k * 50
            self.pdf.rect(x, self.y, 30, 10)
            self.text(x + 8, self.y + 6.5, label)
            if k:
                self.pdf.line(x - 20, self.y + 5, x, self.y + 5)
                self.pdf.line(x - 3, self.y + 3.5, x, self.y + 5)
                self.pdf.line(x - 3, self.y + 6.5, x, self.y + 5)
        x = self.LEFT + 110
        self.pdf.line(x + 15, self.y + 12, x + 15, self.y + 20)
        self.pdf.line(x + 13.5, self.y + 17, x + 15, self.y + 20)
        self.pdf.line(x + 16.5, self.y + 17, x + 15, self.y + 20)
        self.pdf.rect(x, self.y + 20, 30, 10)
        self.text(x + 8, self.y + 26.5, "存档")
        self.y += 38

    def output(self) -> bytes:
        return bytes(self.pdf.output())


def _places(table: GoldTable) -> dict[tuple[int, int], GoldCell]:
    grid = table.grid()
    cells = iter(cell for row in table.rows for cell in row)
    return {
        (r, k): next(cells) for r, row in enumerate(grid) for k, text in enumerate(row) if text is not None
    }


def tables_pdf(font_path: Path, *, captions: bool = True) -> bytes:
    """The gold tables on three pages, with a title block and a flowchart that are not tables."""
    d = _Drawer(font_path)
    for n, tables in enumerate(PAGES):
        d.page()
        if n == 0:
            d.title_block()
        for table in tables:
            d.table(table, caption=captions)
        if n == 2:
            d.flowchart()
    return d.output()
