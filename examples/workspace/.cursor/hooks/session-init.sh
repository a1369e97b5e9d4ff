#!/bin/sh
# sessionStart: give every later hook of this session a variable, and the
# model a line of context.
cat > /dev/null
printf '{"env":{"DEMO_SESSION":"on"},"additional_context":"This workspace blocks raw git; use gh."}\n'
