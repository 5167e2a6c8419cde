"""Settling up: the fewest transfers that move everyone to his net (``handledger settle``).

Balances are integers (money in minor units, or chips): positive = the player is owed that
much, negative = he owes it; they must sum to zero. A settlement of ``k`` players can always be
done in ``k - 1`` transfers; it needs fewer exactly when the players split into groups that
each sum to zero (one transfer fewer per extra group). :func:`fewest_transfers` finds the
largest such partition exactly (a subset dynamic programme, O(2^k · k)) for up to
:data:`EXACT_LIMIT` players with a nonzero balance, and settles each group greedily (largest
debtor pays largest creditor), which takes at most ``size - 1`` transfers per group. Above the
limit it falls back to greedy on everybody: at most ``k - 1`` transfers, not always the minimum.
"""

from __future__ import annotations

from collections.abc import Mapping

#: Up to this many nonzero balances the partition into zero-sum groups is exact.
EXACT_LIMIT = 14

Transfer = tuple[str, str, int]

#: The house's key among the balances :func:`ledger.audit.settlement.settlement` settles (whoever
#: keeps the rake: one more creditor, owed the rake): no player is named ``""``
#: (:func:`ledger.model.names.check_name`), and the settlement gives it back as None.
HOUSE = ""

#: A transfer of the settlement: ``(from, to, amount)``, None on a side being the house.
HouseTransfer = tuple["str | None", "str | None", int]


def fewest_transfers(balances: Mapping[str, int]) -> list[Transfer]:
    """``(from, to, amount)`` transfers, amount > 0, that bring every balance to zero, sorted
    by payer and payee.

    >>> fewest_transfers({"Ann": 30, "Bob": -10, "Cid": -20})
    [('Bob', 'Ann', 10), ('Cid', 'Ann', 20)]
    >>> fewest_transfers({"a": 5, "b": -5, "c": 7, "d": -7})
    [('b', 'a', 5), ('d', 'c', 7)]

    Raises:
        ValueError: the balances do not sum to zero.
    """
    total = sum(balances.values())
    if total:
        raise ValueError(f"balances sum to {total:+d}, not zero: nobody can settle that")
    live = sorted((p, b) for p, b in balances.items() if b)
    if len(live) > EXACT_LIMIT:
        return sorted(greedy_transfers(dict(live)))
    out: list[Transfer] = []
    for group in _zero_sum_groups(live):
        out.extend(greedy_transfers(dict(group)))
    return sorted(out)


def greedy_transfers(balances: Mapping[str, int]) -> list[Transfer]:
    """Largest debtor pays largest creditor, repeatedly (ties by name): at most ``k - 1``
    transfers for ``k`` nonzero balances that sum to zero.

    Raises:
        ValueError: the balances do not sum to zero.
    """
    if sum(balances.values()):
        raise ValueError("balances do not sum to zero")
    left = {p: b for p, b in balances.items() if b}
    out: list[Transfer] = []
    while left:
        debtor = min(left, key=lambda p: (left[p], p))
        creditor = min(left, key=lambda p: (-left[p], p))
        amount = min(-left[debtor], left[creditor])
        out.append((debtor, creditor, amount))
        for p, change in ((debtor, amount), (creditor, -amount)):
            left[p] += change
            if not left[p]:
                del left[p]
    return out


def _zero_sum_groups(live: list[tuple[str, int]]) -> list[list[tuple[str, int]]]:
    """Split ``live`` (nonzero balances summing to zero) into the most zero-sum groups."""
    n = len(live)
    if n == 0:
        return []
    full = (1 << n) - 1
    sums = [0] * (full + 1)
    best = [0] * (full + 1)
    for mask in range(1, full + 1):
        low = mask & -mask
        sums[mask] = sums[mask ^ low] + live[low.bit_length() - 1][1]
        top, rest = 0, mask
        while rest:
            bit = rest & -rest
            rest ^= bit
            if best[mask ^ bit] > top:
                top = best[mask ^ bit]
        best[mask] = top + (sums[mask] == 0)
    order: list[int] = []
    mask = full
    while mask:
        want = best[mask] - (sums[mask] == 0)
        rest = mask
        while rest:
            bit = rest & -rest
            rest ^= bit
            if best[mask ^ bit] == want:
                break
        order.append(bit.bit_length() - 1)
        mask ^= bit
    groups: list[list[tuple[str, int]]] = [[]]
    running = 0
    for i in reversed(order):
        groups[-1].append(live[i])
        running += live[i][1]
        if running == 0:
            groups.append([])
    return [g for g in groups if g]
