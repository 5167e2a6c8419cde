#!/bin/sh
# A bad night at the table: the host makes the mistakes of an ordinary evening and puts each
# right with an appended event. Nothing is rewritten: every original event stays in the ledger.
# Run it from the project folder: `sh data/badnight/badnight.sh [LEDGER]` (ledger: LEDGER, else
# $HANDLEDGER_DB, else badnight.duckdb; the night's export, badnight-export.jsonl, is written in
# the current folder). A line marked "# refused" is a mistake the ledger refuses (exit 2).
export HANDLEDGER_DB="${1:-${HANDLEDGER_DB:-badnight.duckdb}}"

handledger session open saturday --date 2026-11-28 --chip-value 0.25 --currency USD
handledger buyin saturday Ann 200
handledger buyin saturday Bob 200
# mistake 1, a wrong buy-in: Cy bought 200 chips, the host typed 300 (entry 4)
handledger buyin saturday Cy 300
handledger entry amend saturday 4 200 --reason "Cy bought in for 200, not 300" --by host

# hand 1; mistake 2, a typo'd session
handledger hand start --session saturdy --hand s1 --game NT --stakes 1/2 --seats "Ann:200,Bob:200,Cy:200" --button Cy  # refused
handledger hand start --session saturday --hand s1 --game NT --stakes 1/2 --seats "Ann:200,Bob:200,Cy:200" --button Cy
handledger act s1 "d dh Ann AsAd"
handledger act s1 "d dh Bob KsKd"
handledger act s1 "d dh Cy 7c2d"
handledger act s1 "Cy f"
handledger act s1 "Ann cbr 10"
handledger act s1 "Bob cc"
handledger act s1 "d db 2c3h9s"
handledger act s1 "Ann cbr 20"
handledger act s1 "Bob cc"
handledger act s1 "d db Td"
handledger act s1 "Ann cc"
handledger act s1 "Bob cc"
handledger act s1 "d db 4s"
handledger act s1 "Ann cc"
handledger act s1 "Bob cc"
handledger act s1 "Ann sm AsAd"
handledger act s1 "Bob sm KsKd"
# mistake 3, the payout on the wrong player (seq 21): Ann's aces won the 60
handledger act s1 "pay Bob 60"
handledger act s1 end
handledger act s1 "pay Ann 60"  # refused
handledger correct s1 --replace 21 "pay Ann 60" --reason "the pot went to Ann's aces" --by host

# hand 2: mistake 4, the id of hand 1 again; then a misdeal, voided
handledger hand start --session saturday --hand s1 --game NT --stakes 1/2 --seats "Ann:230,Bob:170,Cy:200" --button Ann  # refused
handledger hand start --session saturday --hand s2 --game NT --stakes 1/2 --seats "Ann:230,Bob:170,Cy:200" --button Ann
handledger act s2 "d dh Bob 5h5d"
handledger void s2 --reason "misdeal: two cards exposed" --by host

# hand 3, dealt again: mistake 5, a check recorded where Bob bet (undone); mistake 6, a payout
# before the showdown
handledger hand start --session saturday --hand s3 --game NT --stakes 1/2 --seats "Ann:230,Bob:170,Cy:200" --button Ann
handledger act s3 "d dh Bob QhQc"
handledger act s3 "d dh Cy JdJc"
handledger act s3 "d dh Ann 8s7s"
handledger act s3 "Ann f"
handledger act s3 "Bob cbr 6"
handledger act s3 "Cy cc"
handledger act s3 "d db Ah5c2d"
handledger act s3 "Bob cc"
handledger undo s3 --by host --reason "Bob bet 10, he did not check"
handledger act s3 "Bob cbr 10"
handledger act s3 "pay Bob 32"  # refused
handledger act s3 "Cy cc"
handledger act s3 "d db Kd"
handledger act s3 "Bob cc"
handledger act s3 "Cy cc"
handledger act s3 "d db 3s"
handledger act s3 "Bob cc"
handledger act s3 "Cy cc"
handledger act s3 "Bob sm QhQc"
handledger act s3 "Cy sm JdJc"
handledger act s3 "pay Bob 32"
handledger act s3 end

# the cash-outs: mistake 7, Ann twice; mistake 8, Dee who never bought in; mistake 9, Cy's
# count typed 148 for 184 (entry 8)
handledger cashout saturday Ann 230
handledger cashout saturday Ann 230  # refused
handledger cashout saturday Dee 10  # refused
handledger cashout saturday Bob 186
handledger cashout saturday Cy 148
handledger entry amend saturday 8 184 --reason "Cy counted 184, typed 148" --by host
handledger session close saturday

# settling up: Bob owes Ann 3.50 and Cy owes her 4.00. Mistake 10, the same payment twice (more
# than Bob owes then);
# mistake 11, Cy's payment typed 3.00 for the 4.00 he gave (entry 12; a payment beyond what he owes is
# refused)
handledger settle --session saturday
handledger pay saturday Bob Ann 3.50
handledger pay saturday Bob Ann 3.50  # refused
handledger pay saturday Cy Ann 3.00
handledger entry amend saturday 12 4.00 --reason "Cy paid 4.00" --by host
handledger history --session saturday

# mistake 12, the night's export imported back: nothing is added
handledger export -o badnight-export.jsonl
handledger import badnight-export.jsonl

handledger audit --unsettled
handledger settle --session saturday
handledger verify
