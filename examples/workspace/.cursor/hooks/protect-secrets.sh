#!/bin/sh
# beforeReadFile: keep .env files away from the model.
path=$(jq -r '.file_path // empty')
case "$path" in
  *.env|*/.env.*) printf '{"permission":"deny","user_message":"a .env file holds secrets, so the model never reads it"}\n' ;;
  *) printf '{"permission":"allow"}\n' ;;
esac
