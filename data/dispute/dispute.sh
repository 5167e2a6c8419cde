#!/bin/sh
# The scripted dispute of wrong-push.phh, end to end on a fresh ledger.
# Usage: sh data/dispute/dispute.sh [LEDGER]   (default /tmp/dispute.duckdb; a file at LEDGER is
#   deleted first and the ledger made anew there)
set -u
DIR=$(cd "$(dirname "$0")" && pwd)
export HANDLEDGER_DB="${1:-/tmp/dispute.duckdb}"
HL=${HANDLEDGER:-handledger}
rm -f "$HANDLEDGER_DB"
$HL import "$DIR/wrong-push.phh"
# 1. replay flags it: exit 1, Ann paid 0 (rules 300), Bob paid 400 (rules 100)
$HL replay --hand dispute-1; echo "replay exit $? (1 = discrepancy)"
# 2. what the right split would do (writes nothing); seq 23 is Bob's recorded payout
$HL whatif dispute-1 --replace 23 "pay Bob 100" --insert-after 23 "pay Ann 300"
# 3. record the correction (the original events stay)
$HL correct dispute-1 --replace 23 "pay Bob 100" --insert-after 23 "pay Ann 300" \
    --reason "dealer pushed the main pot to Bob; Ann's aces win it" --by floor
# 4. replay is clean, history shows the original and the correction, the chain verifies
$HL replay --hand dispute-1; echo "replay exit $? (0 = clean)"
$HL history dispute-1
$HL verify; echo "verify exit $?"
