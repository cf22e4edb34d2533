"""An HTML report of match results, plots drawn with matplotlib and embedded as base64 PNG.

Sections: win share per agent and per seat with 95% intervals, first-player advantage, the
distribution of game lengths, ratings fitted to finishing orders, and which actions (cards,
for card games) the winners played more than the others. That last table is generic: it
counts each action's text per seat that made it, using the movers stored with each result;
a game's hooks may supply `label` to group actions by card instead.
"""

from __future__ import annotations

import base64
import html
import io
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from timelord.agents.hooks import hooks_for
from timelord.core import Action, GameError, load
from timelord.sim.stats import Summary, Tally, bradley_terry, summarise


@dataclass
class ActionUse:
    label: str
    by_winners: int
    by_others: int
    winner_rate: float  # uses per winning seat-game
    other_rate: float  # uses per other seat-game

    @property
    def lift(self) -> float:
        return self.winner_rate / self.other_rate if self.other_rate else float("inf")


def _labeller(records: Sequence[dict[str, Any]]) -> Callable[[dict[str, Any]], str | None]:
    """action JSON -> label: the game's hook, else the action's text, else its JSON."""
    try:
        game = load(records[0]["game"], **records[0]["options"])
    except (GameError, KeyError, TypeError):
        return lambda data: " ".join(f"{k}={v}" for k, v in data.items())
    label = hooks_for(game).label

    def text(data: dict[str, Any]) -> str | None:
        action: Action = game.action_from_json(data)
        return label(action) if label is not None else str(action)

    return text


def action_use(records: Sequence[dict[str, Any]], top: int = 25) -> list[ActionUse]:
    """The actions winners used most, with use rates for winners and for the other seats."""
    if not records:
        return []
    label = _labeller(records)
    winners: Counter[str] = Counter()
    others: Counter[str] = Counter()
    win_games = other_games = 0
    cache: dict[str, str | None] = {}
    for record in records:
        result = record["result"]
        won = set(result["winners"])
        players = len(record["seats"])
        win_games += len(won)
        other_games += players - len(won)
        for data, mover in zip(record["actions"], result.get("movers", []), strict=False):
            key = repr(sorted(data.items()))
            if key not in cache:
                cache[key] = label(data)
            text = cache[key]
            if text is None:
                continue
            (winners if mover in won else others)[text] += 1
    rows = [
        ActionUse(
            text,
            count,
            others[text],
            count / win_games if win_games else 0.0,
            others[text] / other_games if other_games else 0.0,
        )
        for text, count in winners.most_common(top)
    ]
    return rows


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
    lows = [t.share - t.interval[0] for t in tallies]
    highs = [t.interval[1] - t.share for t in tallies]
    ax.barh(labels, shares, xerr=[lows, highs], color="#4a7ab5", capsize=4)
    ax.axvline(fair, color="#c0392b", linestyle="--", label=f"fair share {fair:.2f}")
    ax.invert_yaxis()
    ax.set_xlim(0, 1)
    ax.set_xlabel("win share (95% Wilson interval)")
    ax.set_title(title)
    ax.legend(loc="lower right")
    return _png(fig)


def _length_plot(lengths: list[int]) -> str:
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(6, 3))
    ax.hist(lengths, bins=min(40, max(5, len(set(lengths)))), color="#4a7ab5")
    ax.set_xlabel("actions per game")
    ax.set_ylabel("games")
    ax.set_title("Game length")
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


def _use_plot(rows: list[ActionUse]) -> str:
    import matplotlib.pyplot as plt

    rows = rows[:15]
    fig, ax = plt.subplots(figsize=(7, 0.5 + 0.4 * len(rows)))
    labels = [r.label[:40] for r in rows]
    y = range(len(rows))
    ax.barh([i - 0.2 for i in y], [r.winner_rate for r in rows], 0.4, label="winners")
    ax.barh([i + 0.2 for i in y], [r.other_rate for r in rows], 0.4, label="others")
    ax.set_yticks(list(y), labels)
    ax.invert_yaxis()
    ax.set_xlabel("uses per seat per game")
    ax.set_title("What the winners played")
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
    seat0 = summary.by_seat[0]
    lo, hi = seat0.interval
    fair = summary.fair_share
    if lo > fair:
        verdict = "an advantage"
    elif hi < fair:
        verdict = "a disadvantage"
    else:
        verdict = "no advantage that this many games can show"
    return (
        f"The first seat won {seat0.share:.3f} of its games (95% interval "
        f"[{lo:.3f}, {hi:.3f}]) against a fair share of {fair:.3f}: {verdict}."
    )


def render(records: list[dict[str, Any]], title: str = "timelord match report") -> str:
    """The whole report as one self-contained HTML page."""
    import matplotlib

    matplotlib.use("Agg")
    if not records:
        raise ValueError("no games in the results")
    summary = summarise(records)
    ratings = bradley_terry(records)
    uses = action_use(records)
    specs = sorted({s for r in records for s in r["seats"]})
    header = ["", "games", "win share", "95% interval", "mean score"]
    parts = [
        f"<!doctype html><html><head><meta charset='utf-8'><title>{html.escape(title)}</title>",
        f"<style>{_STYLE}</style></head><body><h1>{html.escape(title)}</h1>",
        f"<p>Game <b>{html.escape(summary.game)}</b>, {summary.players} players, "
        f"{summary.games} games; agents: {html.escape(', '.join(specs))}. "
        f"Mean game length {summary.mean_length:.1f} actions.</p>",
        "<h2>Win share per agent</h2>",
        _table(header, _tally_rows(summary.by_agent)),
        _img(_share_plot(summary.by_agent, summary.fair_share, "Win share per agent")),
        "<h2>Win share per seat</h2>",
        f"<p>{html.escape(first_player_text(summary))}</p>",
        _table(header, _tally_rows(summary.by_seat)),
        _img(_share_plot(summary.by_seat, summary.fair_share, "Win share per seat")),
        "<h2>Game length</h2>",
        _img(_length_plot(summary.lengths)),
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
    parts.append("<h2>What the winners played</h2>")
    if uses:
        parts += [
            "<p>Actions the winning seats took most often, per seat per game, against the "
            "same rate for the seats that did not win.</p>",
            _table(
                ["action", "by winners", "by others", "winners / game", "others / game"],
                [
                    [
                        u.label,
                        str(u.by_winners),
                        str(u.by_others),
                        f"{u.winner_rate:.2f}",
                        f"{u.other_rate:.2f}",
                    ]
                    for u in uses
                ],
            ),
            _img(_use_plot(uses)),
        ]
    else:
        parts.append("<p>No winner took an action.</p>")
    parts.append("</body></html>")
    return "\n".join(parts)


def _img(data: str) -> str:
    return f"<img alt='plot' src='data:image/png;base64,{data}'>"
