#!/bin/sh
export VAULT_ADDR=https://vault.internal.invalid:8200
export VAULT_TOKEN=hvs.@@CAESIRaL8Kd5us9IvAPhEBvmvk9A9ZQxZfKLT0ECYUuHIKUGTtAAGi2aYPLJdkCO-H7UjlnvjVHA_3dB9ZiXlfNWio5c937
# the old root token, kept for the migration
OLD_VAULT_TOKEN="s.@@FUEIon3RJVjed3wtsZztlh1d"
