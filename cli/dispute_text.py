"""Text of a hand in dispute, for people: a live hand's state, a what-if, a correction made,
and the history of a hand or a session. Pure functions from what the layers below return to
strings."""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Sequence
from typing import Any

from ledger.model.shell import shell_arg


def state_text(now: Any) -> str:
    """A live hand now (:class:`replay.live.state.Now`): phase, whose turn and what is legal, the
    current bet, the pots with their eligible players, returned chips, the rake taken, the
    payouts recorded so far (in the stacks, out of the pots: a pot paid from reads ``Main
    pot: 4 of 12, the rest paid out``), who declared what (a declare hand, RULES.md §3),
    at a showdown whose cards decide the pots before any payout is typed what the rules pay,
    in ``show``'s words (``by the rules: Main pot 6 (Ann, Bob, Cy): Ann wins 6 …``),
    stacks (with each player's bet in the round in progress, a part of the pots: none between
    rounds), and the seats as an action's ``pN`` names them (PHH's order, from the seat left
    of the button); of a hand that is over, its pots explained as ``show`` ends, what the
    table paid, any payout that differs from the rules, and the stacks after the hand."""
    from replay.typed import as_typed, smallest_unit_note

    state, result = now.state, now.result
    lines = [f"hand {state.hand}: {state.game.code}, phase {state.phase_said}, "
             f"status {state.status}", now.legal]
    if now.ended is not None:  # over: the pots as `show` explains them, the stacks after
        done = now.ended
        if (unit := smallest_unit_note(state.started.unit.decimals)) is not None:
            lines.append(unit)  # as `show` says it: the pots explained in chips
        lines.extend(done.explanation)
        if done.paid:
            lines.append("paid: " + ", ".join(f"{p} {c}" for p, c in done.paid.items()))
        elif done.unawarded:  # as `show` says it: neither the table nor the rules award
            lines.append("paid: none recorded, and the showdown cannot be read (cards not all "
                         "shown): no pot awarded; the stacks after the hand count only the "
                         "uncalled chips returned")
        elif state.status == "complete" and state.rake:  # the rake took the whole pot
            lines.append(f"paid: nobody (the rake of {state.rake} took the pot)")
        elif state.status == "complete":
            lines.append("paid: none recorded (the stacks after the hand are the rules' result)")
        lines.extend(f"paid differently from the rules: {d}" for d in done.differences)
        lines.append("stacks after the hand: " + ", ".join(
            f"{p} {done.stacks[p]}" + (" (folded)" if p in state.folded else "")
            for p in state.players))
        return "\n".join(lines)

    def a(chips: int) -> str:  # in play: as the hand's actions take amounts (4.00 in cents)
        return as_typed(state, chips)

    from engine.awards import pot_name
    from ledger.model.carry_rules import carry_sections
    from replay.paid_out import in_play

    chips_now = in_play(state, result)  # what is paid sits in the stacks, out of the pots
    if state.phase == "bet":
        lines.append(f"current bet {a(state.rnd.current)}")
    for pot, chips in zip(result.pots, chips_now.left, strict=True):
        whole = f" of {a(pot.amount)}, the rest paid out" if chips != pot.amount else ""
        lines.append(f"{pot_name(pot.index)}: {a(chips)}{whole} ({', '.join(pot.eligible)})")
    if result.returned:
        lines.append("returned: " + ", ".join(f"{p} {a(c)}" for p, c in result.returned.items()))
    if result.carried:  # the rules leave them for the next deal: nobody is paid them
        lines.append(f"carried: {a(result.carried)} to the session's next hand, paid to nobody "
                     f"({carry_sections(state.started.options)})")
    if state.rake:  # `rake AMOUNT`: out of the pot, to nobody at the table
        lines.append(f"rake: {a(state.rake)} taken from the pot")
    lines.extend(_paid_so_far(chips_now, a))
    if state.declarations:  # a declare hand's showdown: who declared what so far
        lines.append("declared: " + ", ".join(f"{p} {d}"
                                               for p, d in state.declarations.items()))
    # the cards decide the pots, none paid yet: what the rules pay, as `show` explains it
    lines.extend(f"by the rules: {line}" for line in now.rules)
    lines.append("stacks: " + ", ".join(
        f"{p} {a(chips_now.stacks[p])}" + (" (folded)" if p in state.folded else "")
        + (f" bet {a(now.bets[p])}" if p in now.bets else "")
        for p in state.players))
    lines.append("seats as pN: " + ", ".join(f"p{k} {p}" for k, p in enumerate(state.players, 1))
                 + (" (--seats' order)" if state.started.button is None else
                    " (p1 sits left of the button: PHH's order, not --seats')"))
    return "\n".join(lines)


def _paid_so_far(chips: Any, a: Callable[[int], str]) -> list[str]:
    """``paid so far: Ann 3 (3 of the pot's 4)``: the payouts a hand in play recorded (``pay``,
    ``returned``), each player's total and all of them against the chips ``end`` holds them
    to, the pots and the uncalled bet returned apart (``chips``:
    :class:`replay.paid_out.InPlay`), as the lines above name them: ``paid so far: Bob 1 (1
    of 3: the pot's 2 and Bob's 1 returned)``; no line before the first."""
    if not chips.so_far:
        return []
    total, back = chips.to_pay, chips.returned
    of = (f"of the pot's {a(total)}" if not back else
          f"of {a(total)}: the pot's {a(chips.in_pots)} and "
          + " and ".join(f"{p}'s {a(c)} returned" for p, c in back.items()))
    return ["paid so far: " + ", ".join(f"{p} {a(c)}" for p, c in chips.so_far.items())
            + f" ({a(chips.paid)} {of})"]


def whatif_text(hand: str, w: Any, labels: dict[str, str] | None = None,
                rename: Callable[[str], str] = str) -> str:
    """Each player's result by the rules and his net (what the table paid him minus what he
    put in, the net of ``balances``) before and after a what-if, of a hand in play each pot
    whose winner by the rules moves (nets move once it ends), what is still paid
    differently, the later hands that no longer follow, and the session results' change; in a
    hand kept in a unit with decimals, its chips as the books count them, with the line that
    says so (as ``show``). ``labels``: a platform player's name as the reads show it
    (:attr:`cli.names.Names.labels`), the player column as wide as the longest; ``rename``
    names the players of the other lines so (:class:`cli.names.Names`), never the table's
    column again."""
    from replay.typed import smallest_unit_note

    data = w.as_json()
    shown = {p: (labels or {}).get(p, p) for p in w.before.result.players}
    wide = max([12, *(len(label) + 2 for label in shown.values())])
    unit = smallest_unit_note(w.after.decimals, "nets and payouts")  # the books' chips
    lines = [f"what if, hand {hand} (nothing written):", *([f"  {unit}"] if unit else []),
             f"  {'':<{wide}}{'by the rules':>24}{'net (what the table paid)':>36}",
             f"  {'player':<{wide}}{'before':>8}{'after':>8}{'diff':>8}"
             f"{'before':>13}{'after':>12}{'diff':>11}"]

    def rule(chips: int | None) -> str:  # None: a showdown that cannot be checked
        return "?" if chips is None else f"{chips:+d}"

    for p in w.before.result.players:
        lines.append(f"  {shown[p]:<{wide}}{rule(data['before'][p]):>8}"
                     f"{rule(data['after'][p]):>8}{rule(data['diff'][p]):>8}"
                     f"{data['paid_before'][p]:>+13d}"
                     f"{data['paid_after'][p]:>+12d}{data['paid_diff'][p]:>+11d}")
    from replay.whatif import award_changes

    rest = [f"  start: {', '.join(w.start)}"] if w.start else []  # as `correct` says it
    rest += [f"  {c.sentence()}" for c in award_changes(w.before, w.after)]
    rest += _unknown_lines(w)
    rest += _differently_lines(w)
    rest += [f"  downstream: {_later_start(d)}" for d in w.downstream]
    if w.session:
        moved = {p: v for p, v in data["session"]["diff"].items() if v}
        text = ", ".join(f"{p} {v:+d}" for p, v in moved.items()) or "no change"
        rest.append(f"  session {w.session} results: {text}")
    return "\n".join([*lines, *map(rename, rest)])


def _differently_lines(w: Any) -> list[str]:
    """The what-if's findings (``replay``'s words) after the change: ``still paid
    differently`` for one the hand had before it too (the same player, or the whole table,
    and the same kind of finding), ``would be paid differently`` for one the change brings
    (a hand paid as the rules give before it is never "still" paid differently). A hand paid
    its pots less the rake it records is paid as the rules give, before or after
    (:attr:`replay.hand_replay.HandReplay.differences`, through
    :func:`ledger.audit.rake_count.rake_alone`, as ``replay`` reads it): its rake finding
    alone is no difference, said after the change in ``replay``'s note (``note: hand h: the
    table paid 2 less than the pots and returns: the site kept 2 as rake (as the file
    records)``)."""
    was = {(d.player, d.kind) for d in w.before.differences}
    return [*(f"  {'still' if (d.player, d.kind) in was else 'would be'} paid differently: "
              f"{d.sentence()}" for d in w.after.differences),
            *(f"  note: {d.sentence()}" for d in w.after.rake_kept)]


def _unknown_lines(w: Any) -> list[str]:
    """What a what-if ``w`` can say of the rules' result of a showdown that cannot be
    checked (:mod:`replay.unknown_rules`): whose result is not known, the legal splits of
    the pots, and whether the payouts before and after are one of them (``replay``'s words
    follow in the "still paid differently" or "would be paid differently" lines)."""
    from replay.unknown_rules import same_rules

    was, now = w.unknown
    if was is None and now is None:
        return []
    both = was is not None and now is not None and same_rules(w.before, w.after)
    lines = []
    for when, unknown in ((("", now),) if both else (("before", was), ("after", now))):
        if unknown is None:
            continue
        lines.append(f"  {unknown.not_known(when)}"
                     f"{', the same before and after' if both else ''}; a legal "
                     "split of the pots pays")
        lines += [f"    {words}" for words in unknown.pot_words()]
    for when, unknown, payouts in (("before", was, "the payouts"),
                                   ("after", now, "the corrected payouts")):
        if unknown is not None:
            lines.append(f"  {when}: {unknown.verdict(payouts, why=when == 'before')}")
    return lines


def corrected_text(hand: str, done: Any) -> str:
    """What a correction moved: what it changed in the hand's start (``start: seat Bob's
    stack 15 → 150``, as ``history`` words it), each player's net (the README's one net, what
    ``balances`` adds up: what the table paid minus what he put in) and what the rules give
    him ("by the rules", as ``balances`` labels it), of a hand in play each pot whose winner by
    the rules moves, and later hands to check; an undo names what it took
    back. In a hand kept in a unit with decimals the numbers are its chips, as the books
    count them, with the line saying so."""
    from replay.typed import smallest_unit_note
    from replay.whatif import award_changes

    now = done.unknown[1]
    parts = moved_parts(done, "the hand replays again (its stream did not before)")
    changes = award_changes(done.before, done.after)
    if changes and parts[1:2] == ["by the rules: unchanged"]:  # the nets: a hand in play
        parts[1] = "by the rules: no net moves until the hand ends"
    parts += [c.sentence(done.waits) for c in changes]
    if now is not None:
        parts.append(now.verdict("the payouts now" if done.took_back
                                 else "the corrected payouts"))
    did = (f"undid {done.took_back} in hand {hand}" if done.took_back
           else f"corrected hand {hand}")
    start = [f"start: {', '.join(done.start)}"] if done.start else []
    lines = [f"{did} (seq {done.seq}); " + "; ".join([*start, *parts])]
    if now is not None:  # the legal ways to pay what the rules cannot award
        lines += [f"  a legal split pays the {words}" for words in now.pot_words()]
    if (unit := smallest_unit_note(done.after.decimals, "nets")) is not None:  # books' chips
        lines.append(f"  {unit}")
    return "\n".join([*lines, *downstream_warnings(done.downstream)])


def paid_otherwise_warnings(sentences: Sequence[str]) -> list[str]:
    """A ``warning:`` line for each payout a hand ended (``act … end``) or amended
    (``correct``, ``undo``) is paid otherwise than the rules award
    (:attr:`replay.hand_replay.HandReplay.paid_otherwise`), each naming whom the rules pay:
    ``warning: paid differently from the rules: hand w1: Ann was paid 0, the rules give 6
    (-6) (recorded as the table paid it; `handledger correct` puts it right)``. Recorded
    still: the table's payout, or the host's correction, is history."""
    return [f"warning: paid differently from the rules: {sentence} (recorded as the table "
            "paid it; `handledger correct` puts it right)" for sentence in sentences]


def moved_parts(done: Any, unreplayed: str) -> list[str]:
    """What an amendment (``done``: :class:`replay.corrections.Corrected` or
    :class:`replay.corrections.Voided`) moved, in the terms of ``balances``: the change in each
    player's net and in his result by the rules, ``["change in net: Ann +300, Bob -300", "by
    the rules: unchanged"]`` (not the nets themselves: a voided hand's net is 0; of a showdown
    that cannot be checked, that the rules' result is not known); ``[unreplayed]`` when the
    hand's stream did not replay before it."""
    moved = done.moved
    was, now, same = done.unknown
    parts = [unreplayed] if moved is None else [
        f"{label}: {', '.join(f'{p} {n:+d}' for p, n in moved[key].items()) or none}"
        for label, key, none in (("change in net", "paid", "none"),
                                 ("by the rules", "net", "unchanged"))]
    if moved is not None and (was is not None or now is not None):  # unknown cards
        from replay.compare import NOT_VERIFIABLE

        gone = [p for p in done.after.result.players
                if any(u is not None and p in u.players for u in (was, now))]
        known = ", ".join(f"{p} {n:+d}" for p, n in moved["net"].items())
        parts[1] = (f"by the rules: not known ({NOT_VERIFIABLE}), unchanged" if same else
                    f"by the rules: {known + ', ' if known else ''}not known for "
                    f"{', '.join(gone)} ({NOT_VERIFIABLE})")
    return parts


def downstream_warnings(downstream: Sequence[Any]) -> list[str]:
    """A ``warning:`` line for each later hand whose starting stack no longer follows the
    corrected (or voided) hand (:class:`replay.whatif.Downstream`), as ``correct``, ``undo``
    and ``void`` print them, each later hand's followed by what makes it follow: a correction
    of its start (``--replace 1`` by its ``hand_started`` event with the stacks the books
    expect, docs/LEDGER.md "What is in the ledger")."""
    lines: list[str] = []
    hands: dict[str, list[Any]] = {}
    for d in downstream:
        hands.setdefault(d.hand, []).append(d)
    for hand, starts in hands.items():
        lines += [_own_start(d) if d.itself else f"  warning: {_later_start(d)}"
                  for d in starts]
        starts = [d for d in starts if not d.as_stood]  # those stand as played
        if not starts:
            continue
        stacks = ", ".join(f"{d.player} {d.expected}" for d in starts)
        json_is = (f"JSON the \"event\" of `handledger export {shell_arg(hand)}`'s first line "
                   f"with {stacks}")
        refused = starts[0].refused
        if refused is None:
            lines.append(f"    to follow it: `handledger correct {shell_arg(hand)} --replace 1 "
                         "JSON "
                         f"--reason … --by …`, {json_is}")
            continue
        said = refused.removeprefix("the corrected hand is not legal: ")
        seq = re.match(r"event (\d+) ", said)
        lines.append(f"    its start alone cannot follow it: with {stacks}, hand {hand} is not "
                     f"legal: {said}; correct that action with its start, in one correction "
                     f"(`handledger whatif {shell_arg(hand)} --replace 1 JSON --replace "
                     f"{shell_arg(seq.group(1) if seq else 'SEQ')} ACTION` tries it and names any "
                     "later "
                     f"action refused then; {json_is})")
    return lines


def _later_start(d: Any) -> str:
    """What a later hand's start is against the corrected hand (:class:`replay.whatif.Downstream`):
    one that followed the hand as it stood stands as played, the difference owed in money
    (README "A correction after the chips moved on"); otherwise the stack the books expect,
    the chips he bought between named apart from what the hand leaves him."""
    p = d.player
    if d.as_stood:
        bought = f", and {p} bought {d.bought} since" if d.bought and d.since else ""
        was = (f"it left {p} {d.stood - d.bought}{bought}" if d.since else
               f"the books had {p} {d.stood} there")
        now = (f"now it leaves {p} {d.expected - d.bought}" if d.since else
               f"now they have {p} {d.expected}")
        return (f"hand {d.hand} started {p} with {d.starting}, on hand {d.source} as it stood "
                f"({was}); {now}: {p} {d.expected - d.starting:+d} chips in settle, and hand "
                f"{d.hand} stands as played (the chips at the table are facts)")
    left = (f"the corrected hand leaves {p} {d.expected - d.bought} and {p} bought "
            f"{d.bought} since: {d.expected}" if d.bought and d.since else
            f"the corrected final stack is {d.expected}")
    return f"hand {d.hand} starts {p} with {d.starting}, {left} (was {d.was})"


def _own_start(d: Any) -> str:
    """The warning of a hand whose void was undone, back in the books on a start they do not
    follow (:func:`replay.whatif.start_unfollowed`)."""
    why = (f"hand {d.voided}, before it, is voided and counts for nothing (undo its void too, "
           "and this hand follows it)" if d.voided else "the audit's stack_continuity")
    return (f"  warning: hand {d.hand}, back in the books, starts {d.player} with {d.starting}, "
            f"the books have {d.expected} for {d.player} before it: {why}")


def _json(detail: dict[str, Any]) -> str:
    """``detail`` as one compact JSON object, its names as typed (``"Zoë"``, ``"李雷"``, never
    ``"Zo\\u00eb"``); a control character still escaped."""
    return json.dumps(detail, separators=(",", ":"), ensure_ascii=False)


def history_text(data: dict[str, Any]) -> str:
    """A hand's original events, its ``hand_started`` followed by the rule options it sets
    other than its game's defaults (``rule options: reopen_rule=half_bet; split …; declare
    …``, :func:`replay.hand_history.options_brief`), then every correction and void with its
    changes."""
    from replay.hand_history import change_brief, options_brief

    lines = [f"hand {data['hand']}: {len(data['events'])} original event(s)"]
    first = data["events"][0]["event"] if data["events"] else {}
    decimals = (first.get("unit") or {}).get("decimals", 0)  # a hand kept in cents: 2
    for item in data["events"]:
        detail = {k: v for k, v in item["event"].items()
                  if k not in ("source", "options", "unit", "stakes", "seats")}
        lines.append(f"  {item['seq']:3d} @{item['position']:<6d} {item['recorded_at']} "
                     f"{item['type']} {_json(detail)}")
        if item["type"] == "hand_started" and (rules := options_brief(item["event"])):
            lines.append(f"        rule options: {rules}")
    if not data["amendments"]:
        lines.append("no corrections or voids")
    for item in data["amendments"]:
        lines.append(f"  {item['seq']:3d} @{item['position']:<6d} {item['recorded_at']} "
                     f"{item['type']} by {item['by']}: {item['reason']}")
        if "signature" in item:
            mark = {"good": "ok", "bad": "FAILS", "unknown": "unknown key"}
            lines.append(f"        signature {mark[item['signature']['status']]}: "
                         f"{item['signature']['note']}; {item['signature']['covers']}")
        if item.get("unsigned"):
            signed = ", ".join(f"the {'void' if t['type'] == 'hand_voided' else 'correction'} "
                               f"at seq {t['seq']} (signed by {t['signer']})"
                               for t in item["unsigned"])
            lines.append(f"        unsigned: takes back {signed} with no signature of its own")
        changed = {c["seq"] for c in item.get("changes", []) if c["op"] != "insert_after"}
        for c in item.get("changes", []):
            event = f" {change_brief(c['event'], decimals)}" if c["event"] else ""
            label = "after" if c["op"] == "insert_after" else "was"
            by = c.get("was_set_by")
            was = f" (seq {c['seq']} {label}: {c['was']}" if c["was"] else ""
            if c["was"] and c["op"] == "insert_after" and c["seq"] in changed:
                # the row it follows is the one this correction puts there, not the one shown
                was = (f" (after seq {c['seq']} as this correction changes it; before it: "
                       f"{c['was']}")
            if by is not None:  # in force by an earlier correction (was None: it deleted it)
                was = (f"{was}, set by correction {by})" if c["was"]
                       else f" (seq {c['seq']} was deleted by correction {by})")
            elif was:
                was += ")"
            differs = ""
            if "differs" in c:  # a start replaced: its few words are the same, say what differs
                differs = ": " + ("; ".join(c["differs"]) or "no field differs")
            lines.append(f"        {c['op']} seq {c['seq']}{event}{differs}{was}")
    return "\n".join(lines)


def session_history_text(data: dict[str, Any]) -> str:
    """A session's events, numbered, each book entry with the corrections made to it (a
    payment's payer or payee null, the house, kept: ``"payee":null``)."""
    lines = [f"session {data['session']}: {len(data['events'])} event(s)"]
    for item in data["events"]:
        detail = {k: v for k, v in item["event"].items() if k != "source" and (
            v is not None or k in ("payer", "payee"))}
        lines.append(f"  {item['seq']:3d} @{item['position']:<6d} {item['recorded_at']} "
                     f"{item['type']} {_json(detail)}")
        for c in item["corrections"]:
            what = "retracted" if c["replacement"] is None else "amended to " + _json(
                {k: v for k, v in c["replacement"].items()
                 if k not in ("type", "schema_version")})
            lines.append(f"        {what} by {c['by']} (entry {c['seq']}): {c['reason']}")
    return "\n".join(lines)
