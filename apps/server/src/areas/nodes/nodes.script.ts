/** Quotes a value for a bash single-quoted string. */
const q = (v: string): string => `'${v.replace(/'/g, `'\\''`)}'`;

const hvSteps = `command -v pveum >/dev/null || fail "pveum not found: run this as root on an hv node"
USER_ID='svc-monitor@pve'
TOKEN_ID='svc'
PORT=8006
pveum user add "$USER_ID" --comment 'svc monitoring (read-only)' >/dev/null 2>&1 || true
# Read-only: audit rights plus the guest-agent view svc uses for real guest memory and disk usage.
pveum role add SvcMonitor --privs 'Sys.Audit VM.Audit VM.Monitor Datastore.Audit' >/dev/null 2>&1 ||
  pveum role modify SvcMonitor --privs 'Sys.Audit VM.Audit VM.Monitor Datastore.Audit' >/dev/null
pveum acl modify / --users "$USER_ID" --roles SvcMonitor >/dev/null
pveum user token remove "$USER_ID" "$TOKEN_ID" >/dev/null 2>&1 || true
TOKEN_JSON=$(pveum user token add "$USER_ID" "$TOKEN_ID" --privsep 0 --output-format json)
CERT=/etc/pve/local/pve-ssl.pem`;

const bakSteps = `command -v proxmox-backup-manager >/dev/null || fail "proxmox-backup-manager not found: run this as root on a bak server"
USER_ID='svc-monitor@pbs'
TOKEN_ID='svc'
PORT=8007
proxmox-backup-manager user create "$USER_ID" --comment 'svc monitoring (read-only)' >/dev/null 2>&1 || true
proxmox-backup-manager user delete-token "$USER_ID" "$TOKEN_ID" >/dev/null 2>&1 || true
TOKEN_JSON=$(proxmox-backup-manager user generate-token "$USER_ID" "$TOKEN_ID" --output-format json)
proxmox-backup-manager acl update / Audit --auth-id "$USER_ID!$TOKEN_ID" >/dev/null
CERT=/etc/proxmox-backup/proxy.pem`;

/**
 * The node setup script: run as root on an hv node (or bak server), it creates a read-only API token for svc
 * and registers the node through /api/auto-register with the one-time setup token. It never prints the secret.
 */
export function renderSetupScript(opts: {
  svcUrl: string;
  setupToken: string;
  type: 'hv' | 'bak';
  host?: string;
}): string {
  return `#!/usr/bin/env bash
# svc node setup (${opts.type}): creates a read-only API token for svc and registers this node.
# The setup token in this script works once and expires 15 minutes after it was made.
set -euo pipefail
SVC_URL=${q(opts.svcUrl)}
SETUP_TOKEN=${q(opts.setupToken)}
NODE_TYPE=${q(opts.type)}
HOST_OVERRIDE=${q(opts.host ?? '')}
fail() { echo "svc setup: $*" >&2; exit 1; }
[ "$(id -u)" = 0 ] || fail "run this script as root"
command -v curl >/dev/null || fail "curl is required"
${opts.type === 'hv' ? hvSteps : bakSteps}
SECRET=$(printf '%s' "$TOKEN_JSON" | sed -n 's/.*"value"[[:space:]]*:[[:space:]]*"\\([^"]*\\)".*/\\1/p')
[ -n "$SECRET" ] || fail "could not read the new token's secret"
NAME=$(hostname -s 2>/dev/null || hostname)
HOST=\${HOST_OVERRIDE:-https://$(hostname -f 2>/dev/null || hostname):$PORT}
FINGERPRINT=''
if [ -r "$CERT" ] && command -v openssl >/dev/null; then
  FINGERPRINT=$(openssl x509 -in "$CERT" -noout -fingerprint -sha256 | cut -d= -f2)
fi
BODY=$(printf '{"type":"%s","host":"%s","name":"%s","tokenName":"%s","tokenValue":"%s","fingerprint":"%s"}' \\
  "$NODE_TYPE" "$HOST" "$NAME" "$USER_ID!$TOKEN_ID" "$SECRET" "$FINGERPRINT")
if curl -fsS -X POST "$SVC_URL/api/auto-register" -H 'Content-Type: application/json' \\
  -H "X-Setup-Token: $SETUP_TOKEN" --data "$BODY" >/dev/null; then
  echo "svc setup: $NAME is registered with svc at $SVC_URL"
else
  fail "registration failed; the setup token may have expired: ask svc for a new setup URL"
fi
`;
}
