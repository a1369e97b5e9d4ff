#!/bin/sh
# beforeReadFile: keep .env files away from the model.
path=$(jq -r '.file_path // empty')
case "$path" in
  *.env|*/.env.*) printf '{"permission":"deny","user_message":"%s holds secrets"}\n' "$path" ;;
  *) printf '{"permission":"allow"}\n' ;;
esac
