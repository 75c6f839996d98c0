"""Card labels, colour emoji and plain-words narration of engine events."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

from bot.engine import events as ev
from bot.engine.cards import Color, Face, Side

COLOR_EMOJI: dict[Color | None, str] = {
    Color.RED: "🔴",
    Color.YELLOW: "🟡",
    Color.GREEN: "🟢",
    Color.BLUE: "🔵",
    Color.PINK: "🩷",
    Color.TEAL: "🩵",
    Color.ORANGE: "🧡",
    Color.PURPLE: "💜",
    None: "🌈",
}
SIDE_NAMES = {Side.LIGHT: "☀️ Light side", Side.DARK: "🌑 Dark side"}
COLOR_ORDER = {color: i for i, color in enumerate(Color)}

Namer = Callable[[str], str]


def fit(text: str, limit: int) -> str:
    """``text`` cut to ``limit`` characters, with an ellipsis where it was cut."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


def card_label(face: Face) -> str:
    """A short label such as "Red 5" (at most 80 characters, Discord's button limit)."""
    return fit(face.name(), 80)


def card_text(face: Face) -> str:
    """The face with its colour emoji, for message text."""
    return f"{COLOR_EMOJI[face.color]} {face.name()}"


def color_text(color: Color | None) -> str:
    """The colour in play with its emoji."""
    if color is None:
        return "none yet"
    return f"{COLOR_EMOJI[color]} {color.value.capitalize()}"


def sort_key(face: Face) -> tuple[int, int, str]:
    """Order hands by colour (wilds last), then numbers before symbols."""
    color_rank = len(COLOR_ORDER) if face.color is None else COLOR_ORDER[face.color]
    number = face.number if face.number is not None else 10
    return color_rank, number, face.kind.value


def faces_text(faces: Iterable[Face], limit: int = 1000) -> str:
    """A comma-separated, sorted list of faces, cut to ``limit`` characters."""
    return fit(", ".join(card_text(face) for face in sorted(faces, key=sort_key)), limit)


def plural(count: int, word: str) -> str:
    """ "1 card", "3 cards"."""
    return f"{count} {word}" if count == 1 else f"{count} {word}s"


def narrate(events: Sequence[ev.Event], name: Namer) -> list[str]:
    """Turn engine events into short public sentences (private details left out)."""
    lines: list[str] = []
    for event in events:
        line = _narrate_one(event, name)
        if line:
            lines.append(line)
    return _merge_skips(lines)


def _merge_skips(lines: list[str]) -> list[str]:
    # "Ben drew 2 cards" followed by "Ben lost the turn" reads better as one sentence.
    merged: list[str] = []
    for line in lines:
        if merged and line.endswith(" lost the turn.") and merged[-1].startswith(line[:-15]):
            merged[-1] = merged[-1][:-1] + " and lost the turn."
        else:
            merged.append(line)
    return merged


def _narrate_one(event: ev.Event, name: Namer) -> str | None:
    match event:
        case ev.CardPlayed(player=p, face=face, jump_in=jump):
            verb = "jumped in with" if jump else "played"
            return f"{name(p)} {verb} {card_text(face)}."
        case ev.CardsDrawn(player=p, count=n, reason=reason):
            if reason == "drew":
                return f"{name(p)} drew {plural(n, 'card')}."
            if reason == "caught without UNO":
                return None  # told by UnoCaught
            return f"{name(p)} drew {plural(n, 'card')}."
        case ev.DrawnCardKept(player=p):
            return f"{name(p)} kept the card."
        case ev.TurnSkipped(player=p):
            return f"{name(p)} lost the turn."
        case ev.DirectionChanged(direction=d):
            return "Play goes " + ("clockwise." if d == 1 else "counter-clockwise.")
        case ev.ColorChosen(player=p, color=c):
            return f"{name(p)} chose {color_text(c)}."
        case ev.Flipped(player=p, side=side, top=top):
            side_name = SIDE_NAMES[side]
            return f"🔄 {name(p)} flipped everything to the {side_name}: {card_text(top)} on top."
        case ev.PileReshuffled(cards=n):
            return f"The discard pile was shuffled into a new draw pile ({plural(n, 'card')})."
        case ev.DrawStopped(player=p):
            return f"Nothing was left to draw for {name(p)}."
        case ev.ChallengeResolved(challenger=c, challenged=d, guilty=g):
            verdict = "it was a bluff!" if g else "the play was legal."
            return f"{name(c)} challenged {name(d)}: {verdict}"
        case ev.PenaltyStacked(player=p, total=t):
            return f"{name(p)} stacked: {plural(t, 'card')} pass on."
        case ev.UnoCalled(player=p):
            return f"📣 {name(p)} called UNO!"
        case ev.UnoCaught(catcher=c, target=t):
            return f"🚨 {name(c)} caught {name(t)} without UNO: {name(t)} draws 2."
        case ev.HandsSwapped(player=p, target=t):
            return f"{name(p)} swapped hands with {name(t)}."
        case ev.HandsRotated():
            return "Every hand passed to the next player."
        case ev.HandsShuffled(player=p):
            return f"{name(p)} shuffled all hands together and dealt them out again."
        case ev.DealerChosen(dealer=d, draws=draws):
            drawn = ", ".join(f"{name(p)} {card_text(face)}" for p, face in draws)
            return f"Cards drawn for the deal: {drawn}. {name(d)} deals."
        case ev.RoundStarted(round_no=r, dealer=d, starter=s):
            return f"Round {r}: {name(d)} dealt; {card_text(s)} turned up."
        case ev.RoundEnded(winner=w, awarded=awarded):
            points = dict(awarded).get(w, 0)
            return f"🏁 {name(w)} went out and won the round (+{points} points)."
        case ev.MatchEnded(winner=w):
            return f"🏆 {name(w)} won the game!"
        case ev.PlayerRemoved(player=p, reason=reason):
            return f"{name(p)} {reason}."
        case ev.GameAbandoned():
            return "Fewer than two players remain: the game ends."
        case _:
            return None


def private_notice(events: list[ev.Event], player: str, name: Namer) -> str:
    """What only ``player`` learns from their move: the cards they drew, a revealed hand."""
    notes: list[str] = []
    for event in events:
        if isinstance(event, ev.CardsDrawn) and event.player == player and event.faces:
            notes.append("You drew " + faces_text(event.faces, 300) + ".")
        elif isinstance(event, ev.ChallengeResolved) and event.challenger == player:
            verdict = "bluffed" if event.guilty else "played it legally"
            hand = faces_text(event.hand, 600) or "no cards"
            notes.append(f"{name(event.challenged)} {verdict}. Their hand: {hand}.")
        elif isinstance(event, ev.CardPlayed) and event.player == player:
            notes.append(f"You played {card_text(event.face)}.")
    return " ".join(notes)[:2000]
