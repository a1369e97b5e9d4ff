#!/bin/sh
# stop: ask the agent to run the tests once more, until the loop limit.
# DEMO_SESSION comes from the sessionStart hook's env.
count=$(jq -r '.loop_count')
printf '{"followup_message":"Run the tests again (loop_count %s; DEMO_SESSION=%s)."}\n' "$count" "${DEMO_SESSION:-unset}"
