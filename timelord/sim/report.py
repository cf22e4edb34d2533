"""An HTML report of match results, plots drawn with matplotlib and embedded as base64 PNG.

Sections: win share per agent and per seat with 95% intervals, the advantage of the seat
that moved first (whichever the game chose), games without a winner, lengths in actions and
in the game's own turns and rounds, score spread and winning margins, ratings fitted to
finishing orders, and per card design (the game's `action_card`; moves that play no card
left out) how often it was played and how the seats that played it fared.
"""

from __future__ import annotations

import base64
import html
import io
from collections.abc import Callable, Sequence
from typing import Any

from timelord.core import GameError, load
from timelord.sim.stats import (
    CardTally,
    Summary,
    Tally,
    bradley_terry,
    card_stats,
    length_text,
    mean,
    spread,
    summarise,
)


def card_namer(record: dict[str, Any]) -> Callable[[dict[str, Any]], str | None] | None:
    """action JSON -> the card design it plays (`Game.action_card`), None for moves that play
    no card; None altogether when the game cannot be built here."""
    try:
        game = load(record["game"], **record["options"])
    except GameError:
        return None

    def name(data: dict[str, Any]) -> str | None:
        try:
            return game.action_card(game.action_from_json(data))
        except GameError:
            return None

    return name


def _png(fig: Any) -> str:
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", dpi=90, bbox_inches="tight")
    import matplotlib.pyplot as plt

    plt.close(fig)
    return base64.b64encode(buffer.getvalue()).decode()


def _share_plot(tallies: list[Tally], fair: float, title: str) -> str:
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(6, 0.5 + 0.45 * len(tallies)))
    labels = [t.label for t in tallies]
    shares = [t.share for t in tallies]
    # never negative: matplotlib refuses a negative error bar
    lows = [max(0.0, t.share - t.interval[0]) for t in tallies]
    highs = [max(0.0, t.interval[1] - t.share) for t in tallies]
    ax.barh(labels, shares, xerr=[lows, highs], color="#4a7ab5", capsize=4)
    ax.axvline(fair, color="#c0392b", linestyle="--", label=f"fair share {fair:.2f}")
    ax.invert_yaxis()
    ax.set_xlim(0, 1)
    ax.set_xlabel("win share (95% Wilson interval)")
    ax.set_title(title)
    ax.legend(loc="lower right")
    return _png(fig)


def _histogram(values: Sequence[float], xlabel: str, title: str) -> str:
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(6, 3))
    ax.hist(values, bins=min(40, max(5, len(set(values)))), color="#4a7ab5")
    ax.set_xlabel(xlabel)
    ax.set_ylabel("games")
    ax.set_title(title)
    return _png(fig)


def _rating_plot(ratings: dict[str, float]) -> str:
    import matplotlib.pyplot as plt

    names = sorted(ratings, key=ratings.__getitem__, reverse=True)
    fig, ax = plt.subplots(figsize=(6, 0.5 + 0.45 * len(names)))
    ax.barh(names, [ratings[n] for n in names], color="#5b9e6b")
    ax.axvline(0, color="black", linewidth=0.8)
    ax.invert_yaxis()
    ax.set_xlabel("rating (Elo scale, mean 0)")
    ax.set_title("Ratings from finishing order")
    return _png(fig)


def _card_plot(cards: list[CardTally], fair: float) -> str:
    import matplotlib.pyplot as plt

    cards = cards[:15]
    fig, ax = plt.subplots(figsize=(7, 0.5 + 0.4 * len(cards)))
    shares = [c.share for c in cards]
    lows = [max(0.0, c.share - c.interval[0]) for c in cards]
    highs = [max(0.0, c.interval[1] - c.share) for c in cards]
    ax.barh([c.card[:40] for c in cards], shares, xerr=[lows, highs], color="#5b9e6b", capsize=3)
    ax.axvline(fair, color="#c0392b", linestyle="--", label=f"fair share {fair:.2f}")
    ax.invert_yaxis()
    ax.set_xlim(0, 1)
    ax.set_xlabel("win share of the seats that played it (95% interval)")
    ax.set_title("Cards, most played first")
    ax.legend(loc="lower right")
    return _png(fig)


def _table(header: list[str], rows: list[list[str]]) -> str:
    head = "".join(f"<th>{html.escape(h)}</th>" for h in header)
    body = "".join(
        "<tr>" + "".join(f"<td>{html.escape(c)}</td>" for c in row) + "</tr>" for row in rows
    )
    return f"<table><tr>{head}</tr>{body}</table>"


def _tally_rows(tallies: list[Tally]) -> list[list[str]]:
    return [
        [
            t.label,
            str(t.games),
            f"{t.share:.3f}",
            f"[{t.interval[0]:.3f}, {t.interval[1]:.3f}]",
            f"{t.mean_score:.2f}",
        ]
        for t in tallies
    ]


_STYLE = """
body { font-family: sans-serif; max-width: 60em; margin: 2em auto; color: #222; }
table { border-collapse: collapse; margin: 1em 0; }
td, th { border: 1px solid #bbb; padding: 0.25em 0.6em; text-align: right; }
td:first-child, th:first-child { text-align: left; }
img { display: block; margin: 1em 0; }
"""


def first_player_text(summary: Summary) -> str:
    first = summary.first
    if not first.games:
        return "These results do not say which seat moved first."
    lo, hi = first.interval
    fair = summary.fair_share
    if lo > fair:
        verdict = "an advantage"
    elif hi < fair:
        verdict = "a disadvantage"
    else:
        verdict = "no advantage that this many games can show"
    return (
        f"The seat that moved first (whichever seat the game chose) won {first.share:.3f} of "
        f"its {first.games} games (95% interval [{lo:.3f}, {hi:.3f}]) against a fair share of "
        f"{fair:.3f} (an even part of the games someone won): {verdict}."
    )


def _outcome_text(summary: Summary) -> str:
    decided = summary.games - summary.no_winner
    return (
        f"{decided} games had a winner ({summary.shared} of them won by several seats "
        f"together); {summary.no_winner} ended without one"
        + (
            f" ({summary.no_winner / summary.games:.1%}: round limits, everyone out)."
            if summary.no_winner
            else "."
        )
    )


def _length_rows(summary: Summary) -> list[list[str]]:
    rows = []
    for unit, values in (
        ("actions", summary.lengths),
        ("turns", summary.turns),
        ("rounds", summary.rounds),
    ):
        if values:
            ordered = sorted(values)
            rows.append(
                [
                    unit,
                    f"{mean(values):.1f}",
                    str(ordered[0]),
                    str(ordered[len(ordered) // 2]),
                    str(ordered[-1]),
                ]
            )
    return rows


def _spread_rows(summary: Summary) -> list[list[str]]:
    rows = []
    for label, values in (
        ("final score, every seat", summary.scores),
        ("winning margin", summary.margins),
    ):
        centre, sd, low, high = spread(values)
        rows.append(
            [label, str(len(values)), f"{centre:.2f}", f"{sd:.2f}", f"{low:g}", f"{high:g}"]
        )
    return rows


def render(
    records: list[dict[str, Any]], title: str = "timelord match report", skipped: int = 0
) -> str:
    """The whole report as one self-contained HTML page; `skipped` malformed lines are
    mentioned at the top."""
    import matplotlib

    matplotlib.use("Agg")
    if not records:
        raise ValueError("no games in the results")
    summary = summarise(records)
    ratings = bradley_terry(records)
    namer = card_namer(records[0])
    cards = card_stats(records, namer) if namer is not None else []
    specs = sorted({s for r in records for s in r["seats"]})
    header = ["", "games", "win share", "95% interval", "mean score"]
    parts = [
        f"<!doctype html><html><head><meta charset='utf-8'><title>{html.escape(title)}</title>",
        f"<style>{_STYLE}</style></head><body><h1>{html.escape(title)}</h1>",
        f"<p>Game <b>{html.escape(summary.game)}</b>, {summary.players} players, "
        f"{summary.games} games; agents: {html.escape(', '.join(specs))}. "
        f"Mean game length {html.escape(length_text(summary))}. "
        f"{html.escape(_outcome_text(summary))}</p>",
    ]
    if skipped:
        parts.append(
            f"<p><b>{skipped} malformed line{'s' if skipped != 1 else ''} of the results file "
            "were left out.</b></p>"
        )
    note = summary.seat_note()
    parts += [
        "<h2>Win share per agent</h2>",
        _table(header, _tally_rows(summary.by_agent)),
        _img(_share_plot(summary.by_agent, summary.fair_share, "Win share per agent")),
        "<h2>Win share per seat</h2>",
        f"<p>{html.escape(first_player_text(summary))}</p>",
        f"<p><b>{html.escape(note)}</b></p>" if note else "",
        _table(header, _tally_rows([*summary.by_seat, summary.first])),
        _img(_share_plot(summary.by_seat, summary.fair_share, "Win share per seat")),
        "<h2>Game length</h2>",
        "<p>Turns and rounds as the game itself counts them.</p>",
        _table(["unit", "mean", "least", "median", "most"], _length_rows(summary)),
        _img(_histogram(summary.lengths, "actions per game", "Game length")),
        "<h2>Scores and margins</h2>",
        "<p>The winning margin of a game is the best winner's score less the best score of a "
        "seat that did not win (games with a winner and a loser only).</p>",
        _table(["", "values", "mean", "sd", "least", "most"], _spread_rows(summary)),
    ]
    if summary.margins:
        parts.append(_img(_histogram(summary.margins, "winning margin", "Winning margins")))
    parts += [
        "<h2>Ratings</h2>",
        "<p>Bradley-Terry fit of every pair of seats in every game (better finishing place "
        "wins the pair, equal places draw), on the Elo scale with mean 0: 200 points apart "
        "means the stronger finishes ahead about 76% of the time.</p>",
    ]
    if len(ratings) > 1:
        rows = [[n, f"{v:+.0f}"] for n, v in sorted(ratings.items(), key=lambda kv: -kv[1])]
        parts += [_table(["agent", "rating"], rows), _img(_rating_plot(ratings))]
    else:
        parts.append("<p>Only one kind of agent played: nothing to rate.</p>")
    parts.append("<h2>Cards</h2>")
    if cards:
        parts += [
            "<p>Each card design (all its copies together; moves that play no card left out): "
            "how often it was played, in how many games, and how the seats that played it "
            "fared: their win share, final scores and spread, and the winning margin of the "
            "games they won. A high win share says the card goes with winning, not that it "
            "causes it.</p>",
            _table(
                [
                    "card",
                    "plays",
                    "per game",
                    "in games",
                    "players' win share",
                    "95% interval",
                    "players' mean score",
                    "score sd",
                    "margin when they won",
                ],
                [
                    [
                        c.card,
                        str(c.plays),
                        f"{c.plays / summary.games:.2f}",
                        f"{c.games / summary.games:.0%}",
                        f"{c.share:.3f}",
                        f"[{c.interval[0]:.3f}, {c.interval[1]:.3f}]",
                        f"{c.mean_score:.2f}",
                        f"{c.score_sd:.2f}",
                        "-" if c.mean_margin is None else f"{c.mean_margin:.2f}",
                    ]
                    for c in cards
                ],
            ),
            _img(_card_plot(cards, summary.fair_share)),
        ]
    else:
        parts.append("<p>No move of these games named a card (the game's action_card).</p>")
    parts.append("</body></html>")
    return "\n".join(parts)


def _img(data: str) -> str:
    return f"<img alt='plot' src='data:image/png;base64,{data}'>"
