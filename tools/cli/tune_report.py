"""What ``botarena tune`` prints and writes: the report, the CSV and the plot."""
from __future__ import annotations

from tools.arena.tally import format_elo
from tools.cli.options import write_csv as write_csv_rows
from tools.cli.sweep_plot import PLOT_HINT, save_figure
from tools.tune.tuners import point_row


def report_lines(result: dict, args, plotted: bool) -> list[str]:
    parameters = ", ".join(f"{name}={value}" for name, value in result["parameters"].items())
    lines = [f"tune {result['method']} {args.template!r} vs {args.vs}: {result['games']} games "
             f"({result['games_played_now']} played now)"]
    if result["method"] == "spsa":
        lines.append(f"  {result['iterations']} iterations; gains " + "; ".join(
            f"{name}: c_end {g['c_end']:.3g} r_end {g['r_end']:.3g}"
            for name, g in result["gains"].items()))
        lines.append("  theta " + ", ".join(f"{name}={value:.4g}"
                                            for name, value in result["theta"].items()))
    else:
        lines += _race_lines(result, list(result["parameters"]))
    lines.append(f"tuned: {parameters}  ->  {result['tuned']}")
    if result["start"] is not None:
        lines.append(f"start: {result['start']}")
    for label, match in result["verification"].items():
        elo = format_elo(match["elo"], "+inf" if (match["score"] or 0) > 0.5 else "-inf")
        lines.append(f"  vs {match['against']} ({label}): {match['games']} games  "
                     f"{match['wins']}-{match['draws']}-{match['losses']}  score "
                     f"{match['score']:.1%}  Elo {elo} {match['interval']} (95 %)")
    if not result["verification"]:
        lines.append("  no verification match (-n 0, or the tuned bot is the start)")
    if args.csv:
        lines.append(f"csv: {args.csv}")
    if args.plot:
        lines.append(f"plot: {args.plot}" if plotted else
                     f"plot: not drawn, matplotlib is missing ({PLOT_HINT})")
    lines.append(f"seed {result['seed']}  {result['executor']}"
                 + (f"  results {args.out}" if args.out else ""))
    return lines


def _race_lines(result: dict, names: list[str]) -> list[str]:
    widths = [max(len(name), *(len(str(row[name])) for row in result["points"])) for name in names]
    head = "  ".join(f"{name:>{width}}" for name, width in zip(names, widths))
    lines = [f"  {head}  {'games':>5}  {'score':>6}  {'Elo':>7}  {'95 % interval':<18}  dropped"]
    for row in result["points"]:
        cells = "  ".join(f"{row[name]:>{width}}" for name, width in zip(names, widths))
        dropped = f"after round {row['dropped_after_round']}" if row["dropped_after_round"] \
            else "live"
        unbounded = "+inf" if row["score"] > 0.5 else "-inf"
        bounds = f"[{format_elo(row['elo_low'], '-inf')}, {format_elo(row['elo_high'], '+inf')}]"
        lines.append(f"  {cells}  {row['games']:>5}  {row['score']:>6.1%}  "
                     f"{format_elo(row['elo'], unbounded):>7}  {bounds:<18}  {dropped}")
    saved = result["full_grid_games"] - result["race_games"]
    lines.append(f"  racing used {result['race_games']} games; a full grid with as many games "
                 f"per point as the winner's takes {result['full_grid_games']}: {saved} saved "
                 f"({saved / max(result['full_grid_games'], 1):.0%})")
    if result["tied_cuts"]:
        rounds = ", ".join(str(number + 1) for number in result["tied_cuts"])
        lines.append(f"  note: the cut after round {rounds} split points with equal scores (the "
                     "earlier in the grid kept): play more --pairs, or pick a closer opponent")
    return lines


def write_csv(path: str, tuner) -> None:
    if tuner.method == "spsa":
        rows = tuner.run.spsa.trajectory
        fields = ["iteration", "result"] + [p.name for p in tuner.run.spsa.parameters]
    else:
        rows = [point_row(tuner.names, entrant) for entrant in tuner.run.race.entrants]
        fields = list(rows[0]) if rows else []
    write_csv_rows(path, fields, rows)


def write_plot(path: str, tuner, args) -> None:
    """SPSA: one panel per parameter, theta against the iteration; race: each point's Elo."""
    import matplotlib
    matplotlib.use("Agg")
    from matplotlib import pyplot

    if tuner.method == "spsa":
        parameters = tuner.run.spsa.parameters
        figure, panels = pyplot.subplots(len(parameters), 1, sharex=True, squeeze=False,
                                         figsize=(7, 2.2 + 1.8 * len(parameters)))
        rows = tuner.run.spsa.trajectory
        for p, (axes,) in zip(parameters, panels):
            axes.plot([0] + [row["iteration"] for row in rows],
                      [p.from_internal(tuner.start_units[parameters.index(p)])]
                      + [row[p.name] for row in rows])
            axes.set_ylim(p.low, p.high)
            axes.set_yscale("log" if p.log else "linear")
            axes.set_ylabel(p.name)
        panels[-1][0].set_xlabel("iteration")
    else:
        figure, axes = pyplot.subplots(figsize=(7, 4.5))
        rows = [point_row(tuner.names, entrant) for entrant in tuner.run.race.entrants]
        for x, row in enumerate(rows):
            if row["elo"] is None:
                continue
            low = row["elo_low"] if row["elo_low"] is not None else row["elo"] - 800
            high = row["elo_high"] if row["elo_high"] is not None else row["elo"] + 800
            axes.errorbar([x], [row["elo"]], yerr=[[row["elo"] - low], [high - row["elo"]]],
                          marker="o", capsize=4,
                          color="C0" if row["dropped_after_round"] is None else "grey")
        axes.set_xticks(range(len(rows)), [",".join(str(row[n]) for n in tuner.names)
                                           for row in rows])
        axes.set_xlabel(", ".join(tuner.names))
        axes.set_ylabel(f"Elo vs {args.vs} (95 %; grey: dropped)")
        axes.axhline(0, color="grey", linewidth=0.8)
    figure.suptitle(f"{args.game}: tune {args.method} {args.template}", fontsize=10)
    figure.tight_layout()
    save_figure(figure, path)
