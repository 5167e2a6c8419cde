"""The series chart: each player's cumulative net across the series, hand by hand (matplotlib)."""

from __future__ import annotations

from pathlib import Path


def write_chart(path: Path, rows: list[tuple[int, str, int]], unit: str) -> None:
    """Plot cumulative nets from ``(ord, player, net)`` rows (ledger order) into ``path``,
    exactly that file: SVG or PDF for those suffixes, PNG otherwise.

    Raises:
        OSError: ``path`` cannot be written.
    """
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    hands = sorted({o for o, _, _ in rows})
    index = {o: i for i, o in enumerate(hands, 1)}
    series: dict[str, tuple[list[int], list[int]]] = {}
    totals: dict[str, int] = {}
    for o, player, net in rows:
        totals[player] = totals.get(player, 0) + net
        xs, ys = series.setdefault(player, ([0], [0]))
        xs.append(index[o])
        ys.append(totals[player])
    for xs, ys in series.values():  # flat to the end of the series after his last hand
        xs.append(len(hands))
        ys.append(ys[-1])
    fig, ax = plt.subplots(figsize=(10, 5.5))
    for player in sorted(series, key=lambda p: -totals[p]):
        xs, ys = series[player]
        ax.step(xs, ys, where="post", label=f"{player} ({totals[player]:+d})")
    ax.axhline(0, color="grey", linewidth=0.8)
    ax.set_xlabel("hand (ledger order)")
    ax.set_ylabel(f"cumulative net, {unit}")
    ax.set_title("Cumulative net per player across the series")
    ax.legend(loc="upper left", fontsize="small")
    fig.tight_layout()
    kind = path.suffix.lower().lstrip(".")
    try:
        fig.savefig(path, dpi=110, format=kind if kind in ("png", "svg", "pdf") else "png")
    finally:
        plt.close(fig)
