"""One table for every benchmark row: what `bench/run.py` and the `bench/bench_*.py` scenario scripts measure.

A row is a measurement beside its reference taken in the same run (the bare twin serving the same bytes from
memory in the same server, the REST call for an MCP tool, the 10k size for a 1M row's curve):

    row, label, size, rps, p50, p99, queries, memory_mib,
    ref_label, ref_rps, ref_p50, ref_p99, ref_memory_mib, ratio, note

Scenario scripts hand their rows to `run.py` with `emit(...)`: one JSON line appended to the file named by
`BENCH_ROWS_FILE` (set by run.py; nothing is written when a script runs on its own). `run.py` prints the whole
table, writes it to `bench/results.md` and draws `bench/results.svg`.
"""

import json
import os
from dataclasses import asdict, dataclass, fields
from pathlib import Path

BENCH_DIR = Path(__file__).resolve().parent


@dataclass
class Row:
    row: str  # short name (a BENCH_ONLY key)
    label: str  # what was requested
    size: str = ""  # data size of a scale row ("10k", "1M"), else empty
    rps: float | None = None
    p50: float | None = None  # ms
    p99: float | None = None  # ms
    queries: float | None = None  # SQL queries per request
    memory_mib: float | None = None  # peak RSS (VmHWM) of the busiest server worker during the row
    ref_label: str = ""
    ref_rps: float | None = None
    ref_p50: float | None = None
    ref_p99: float | None = None
    ref_memory_mib: float | None = None
    ratio: float | None = None  # rps / ref_rps unless the scenario defines its own
    note: str = ""

    def __post_init__(self):
        if self.ratio is None and self.rps and self.ref_rps:
            self.ratio = self.rps / self.ref_rps


def measured(row: str, label: str, result: dict, reference: dict | None = None, **extra) -> Row:
    """A Row from `load()` results (dicts with rps, p50, p99 and optionally memory_mib)."""
    reference = reference or {}
    return Row(
        row=row,
        label=label,
        rps=result.get("rps"),
        p50=result.get("p50"),
        p99=result.get("p99"),
        memory_mib=result.get("memory_mib"),
        ref_rps=reference.get("rps"),
        ref_p50=reference.get("p50"),
        ref_p99=reference.get("p99"),
        ref_memory_mib=reference.get("memory_mib"),
        **extra,
    )


def emit(built: Row | None = None, /, **values) -> Row:
    """Hand a row to `bench/run.py` (a scenario script's output): a built `Row`, or its fields; returns it."""
    row = built or Row(**values)
    target = os.environ.get("BENCH_ROWS_FILE")
    if target:
        with open(target, "a", encoding="utf-8") as out:
            out.write(json.dumps(asdict(row)) + "\n")
    return row


def collect(path: Path) -> list[Row]:
    if not path.exists():
        return []
    names = {f.name for f in fields(Row)}
    rows = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.strip():
            rows.append(Row(**{k: v for k, v in json.loads(line).items() if k in names}))
    return rows


# Peak memory of the gunicorn workers: VmHWM from /proc, reset between rows through clear_refs ("5" resets the
# peak RSS to the current RSS; Linux only, our own processes only).


def worker_pids(master_pid: int) -> list[int]:
    try:
        children = Path(f"/proc/{master_pid}/task/{master_pid}/children").read_text().split()
    except OSError:
        return []
    return [int(pid) for pid in children]


def _status_kib(pid: int, key: str) -> int | None:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith(key + ":"):
                return int(line.split()[1])
    except OSError:
        return None
    return None


def reset_worker_peaks(master_pid: int) -> None:
    for pid in worker_pids(master_pid):
        try:
            Path(f"/proc/{pid}/clear_refs").write_text("5")
        except OSError:
            pass


def worker_peak_mib(master_pid: int) -> float | None:
    """The highest VmHWM among the master's workers since the last reset, in MiB."""
    peaks = [_status_kib(pid, "VmHWM") for pid in worker_pids(master_pid)]
    peaks = [p for p in peaks if p is not None]
    return max(peaks) / 1024 if peaks else None


# Output: the terminal table, bench/results.md and bench/results.svg.

COLUMNS = [
    ("row", "row", "<", None),
    ("size", "size", "<", None),
    ("rps", "req/s", ">", ".0f"),
    ("p50", "p50 ms", ">", ".1f"),
    ("p99", "p99 ms", ">", ".1f"),
    ("queries", "queries", ">", ".0f"),
    ("memory_mib", "peak MiB", ">", ".0f"),
    ("ref_label", "reference", "<", None),
    ("ref_rps", "req/s", ">", ".0f"),
    ("ref_p50", "p50 ms", ">", ".1f"),
    ("ref_p99", "p99 ms", ">", ".1f"),
    ("ref_memory_mib", "peak MiB", ">", ".0f"),
    ("ratio", "ratio", ">", ".2f"),
]


def _cell(row: Row, key: str, fmt: str | None) -> str:
    value = getattr(row, key)
    if value is None or value == "":
        return "-" if fmt else ""
    return format(value, fmt) if fmt else str(value)


def print_table(rows: list[Row], heading: str) -> None:
    cells = [[_cell(r, key, fmt) for key, _, _, fmt in COLUMNS] for r in rows]
    widths = [max([len(title)] + [len(c[i]) for c in cells]) for i, (_, title, _, _) in enumerate(COLUMNS)]
    widths[0] = min(widths[0], 44)
    print()
    print(heading)
    print("  ".join(f"{title:{align}{w}}" for (_, title, align, _), w in zip(COLUMNS, widths, strict=True)))
    print("  ".join("-" * w for w in widths))
    for r, line in zip(rows, cells, strict=True):
        print("  ".join(f"{c[:w]:{align}{w}}" for (_, _, align, _), c, w in zip(COLUMNS, line, widths, strict=True)))
        if r.note:
            print(f"    {r.note}")


def write_markdown(rows: list[Row], heading: str, path: Path) -> None:
    lines = [
        "# Benchmark results",
        "",
        "Written by `make bench` (`bench/run.py`); the curve is in [results.svg](results.svg) and how to read it in",
        "[docs/benchmarks.md](../docs/benchmarks.md).",
        "",
        heading,
        "",
        "| " + " | ".join(f"{title}" for _, title, _, _ in COLUMNS) + " |",
        "|" + "|".join("---" if align == "<" else "---:" for _, _, align, _ in COLUMNS) + "|",
    ]
    for r in rows:
        cells = [_cell(r, key, fmt).replace("|", "\\|") for key, _, _, fmt in COLUMNS]
        cells[0] = f"`{r.row}` {r.label}".replace("|", "\\|")
        lines.append("| " + " | ".join(cells) + " |")
    notes = [f"- `{r.row}`{' ' + r.size if r.size else ''}: {r.note}" for r in rows if r.note]
    if notes:
        lines += ["", "Notes:", "", *notes]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


SIZE_ORDER = {"10k": 10_000, "100k": 100_000, "1M": 1_000_000}


def draw_svg(rows: list[Row], path: Path) -> None:
    """Left: p99 against data size for every scale row (log x); right: API/reference ratio of every row."""
    import pygal
    from pygal.style import CleanStyle

    scale = {}
    for r in rows:
        if r.size in SIZE_ORDER and r.p99 is not None:
            scale.setdefault(r.row, []).append((SIZE_ORDER[r.size], r.p99))
    curve = pygal.XY(
        logarithmic=False,
        style=CleanStyle,
        width=900,
        height=500,
        title="p99 latency (ms) against data size (bookings)",
        x_title="bookings in the organization (log scale: 10k, 100k, 1M)",
        y_title="p99 ms",
        dots_size=4,
        legend_at_bottom=True,
        js=[],
        x_labels=[4, 5, 6],
        x_value_formatter=lambda x: f"{10**x:,.0f}",
    )
    import math

    for name, points in sorted(scale.items()):
        curve.add(name, [(math.log10(size), p99) for size, p99 in sorted(points)])
    ratios = pygal.HorizontalBar(
        style=CleanStyle,
        width=900,
        height=max(300, 22 * len(rows) + 120),
        title="requests/s as a fraction of the reference (bare twin, REST, ...) in the same run",
        show_legend=False,
        print_values=True,
        js=[],
        value_formatter=lambda v: f"{v:.2f}",
    )
    labelled = [r for r in rows if r.ratio is not None]
    ratios.x_labels = [f"{r.row} {r.size}".strip() for r in labelled]
    ratios.add("ratio", [r.ratio for r in labelled])
    # One document with both charts stacked: pygal renders each as a standalone <svg>; nest them.
    top, bottom = curve.render(is_unicode=True), ratios.render(is_unicode=True)
    height = 500 + max(300, 22 * len(rows) + 120)
    path.write_text(
        '<?xml version="1.0" encoding="utf-8"?>\n'
        f'<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="900" '
        f'height="{height}" viewBox="0 0 900 {height}">\n'
        f'<svg x="0" y="0" width="900" height="500">{_strip_xml_declaration(top)}</svg>\n'
        f'<svg x="0" y="500" width="900" height="{height - 500}">{_strip_xml_declaration(bottom)}</svg>\n'
        "</svg>\n",
        encoding="utf-8",
    )


def _strip_xml_declaration(svg: str) -> str:
    return svg.split("?>", 1)[1] if svg.startswith("<?xml") else svg
