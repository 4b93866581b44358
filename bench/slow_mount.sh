# A folder served over a slow link, as a NAS or a server is: sshd on 127.0.0.1 with a throwaway
# key, delay_proxy.py as ssh's ProxyCommand (DELAY ms each way, so a round trip is twice that;
# optionally a cap in kbit/s), and sshfs mounting it. Sourced by bench/run.sh and the tests:
#   slow_mount_start FOLDER MOUNTPOINT DELAY_MS [KBIT_S]   (needs root, sshd and sshfs)
#   slow_mount_stop MOUNTPOINT
#   kill -STOP $(slow_mount_server_pids)   (a server that stops answering; -CONT resumes it)
# Every mount made is unmounted by slow_mount_stop_all (call it from an EXIT trap).

SLOW_MOUNT_HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
SLOW_MOUNT_STATE=$(mktemp -d)
SLOW_MOUNTS=()

# sshd on a free port of 127.0.0.1, keys made for this run only; sets SLOW_MOUNT_PORT.
slow_mount_sshd() {
    [ -n "${SLOW_MOUNT_PORT:-}" ] && return 0
    local dir=$SLOW_MOUNT_STATE
    ssh-keygen -q -t ed25519 -N "" -f "$dir/host" && ssh-keygen -q -t ed25519 -N "" -f "$dir/client" || return 1
    cp "$dir/client.pub" "$dir/authorized_keys"
    SLOW_MOUNT_PORT=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
    mkdir -p /run/sshd
    cat > "$dir/sshd_config" <<EOF
ListenAddress 127.0.0.1
Port $SLOW_MOUNT_PORT
HostKey $dir/host
AuthorizedKeysFile $dir/authorized_keys
PermitRootLogin prohibit-password
PasswordAuthentication no
KbdInteractiveAuthentication no
StrictModes no
UsePAM no
PidFile $dir/sshd.pid
Subsystem sftp internal-sftp
EOF
    /usr/sbin/sshd -f "$dir/sshd_config" -E "$dir/sshd.log" || return 1
    for _ in $(seq 50); do [ -s "$dir/sshd.pid" ] && return 0; sleep 0.1; done
    return 1
}

slow_mount_start() {
    local folder=$1 mountpoint=$2 delay=$3 rate=${4:-}
    slow_mount_sshd || { echo "slow mount: sshd did not start" >&2; return 1; }
    mkdir -p "$mountpoint"
    # No kernel or sshfs caching of attributes or listings: every look costs a round trip, as on a
    # share another machine also writes to.
    sshfs "root@127.0.0.1:$(realpath "$folder")" "$mountpoint" \
        -o "ProxyCommand=python3 $SLOW_MOUNT_HERE/delay_proxy.py 127.0.0.1 $SLOW_MOUNT_PORT $delay $rate" \
        -o IdentityFile="$SLOW_MOUNT_STATE/client" -o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null \
        -o LogLevel=ERROR -o cache=no -o attr_timeout=0 -o entry_timeout=0 -o negative_timeout=0 || return 1
    SLOW_MOUNTS+=("$mountpoint")
}

# The server's processes: sshd, its sessions and their sftp servers.
slow_mount_server_pids() {
    local server child
    server=$(cat "$SLOW_MOUNT_STATE/sshd.pid") || return 1
    echo "$server"
    for child in $(pgrep -P "$server"); do echo "$child"; pgrep -P "$child"; done
}

slow_mount_stop() {
    fusermount -u -z "$1" 2>/dev/null || umount -l "$1" 2>/dev/null
}

slow_mount_stop_all() {
    local mountpoint
    for mountpoint in "${SLOW_MOUNTS[@]}"; do slow_mount_stop "$mountpoint"; done
    [ -s "$SLOW_MOUNT_STATE/sshd.pid" ] && kill "$(cat "$SLOW_MOUNT_STATE/sshd.pid")" 2>/dev/null
    rm -rf "$SLOW_MOUNT_STATE"
}
