#!/bin/sh
# stop: ask the agent to run the tests once more, until the loop limit.
count=$(jq -r '.loop_count')
printf '{"followup_message":"Run the tests again (follow-up %s)."}\n' "$count"
