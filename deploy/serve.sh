#!/usr/bin/env bash
# Serve Attention Lens to a class: N `streamlit run app.py` replicas on 127.0.0.1 behind HAProxy
# (an inserted affinity cookie, websockets, health checks on /_stcore/health), in the foreground.
# Ctrl-C or SIGTERM stops HAProxy and every replica.
#
#   bash deploy/serve.sh [--replicas N] [--port P] [--bind ADDR] [--remote HOST:PORT]...
#
# Replicas listen on P+1 ... P+N. --remote adds a replica that runs on another machine
# (`streamlit run app.py --server.address 0.0.0.0 --server.port PORT` there). The run directory
# ($LENS_RUN_DIR, or a new temporary one) holds haproxy.cfg, replica-I.pid and the logs;
# replica I listens on P+I.
set -euo pipefail

replicas=2 port=8501 bind=0.0.0.0 remotes=()
while (($#)); do
    case $1 in
        --replicas) replicas=$2; shift 2 ;;
        --port) port=$2; shift 2 ;;
        --bind) bind=$2; shift 2 ;;
        --remote) remotes+=("$2"); shift 2 ;;
        *) echo "usage: $0 [--replicas N] [--port P] [--bind ADDR] [--remote HOST:PORT]..." >&2
           exit 2 ;;
    esac
done

root=$(cd "$(dirname "$0")/.." && pwd)
run=${LENS_RUN_DIR:-$(mktemp -d -t lens-deploy.XXXXXX)}
mkdir -p "$run"
python=${PYTHON:-python}

if ! command -v haproxy >/dev/null; then
    echo "installing haproxy (Debian package)" >&2
    sudo=(); [[ $(id -u) -eq 0 ]] || sudo=(sudo)
    # RUNLEVEL=1: invoke-rc.d does not start Debian's own haproxy service; ours runs below
    export DEBIAN_FRONTEND=noninteractive RUNLEVEL=1
    "${sudo[@]}" apt-get update -q && "${sudo[@]}" apt-get install -y -q haproxy
fi
haproxy=$(command -v haproxy || echo /usr/sbin/haproxy)

pids=() haproxy_pid=""
stop() {
    trap - INT TERM EXIT
    kill "${pids[@]}" ${haproxy_pid:+"$haproxy_pid"} 2>/dev/null || true
    wait
    exit 0
}
trap stop INT TERM EXIT

servers=""
for ((i = 1; i <= replicas; i++)); do
    "$python" -m streamlit run "$root/app.py" --server.address 127.0.0.1 \
        --server.port $((port + i)) --server.headless true \
        --browser.gatherUsageStats false >"$run/replica-$i.log" 2>&1 &
    pids[i]=$!
    echo $! >"$run/replica-$i.pid"
    servers+="    server r$i 127.0.0.1:$((port + i)) cookie r$i"$'\n'
done
for remote in "${remotes[@]}"; do
    name=${remote//[^A-Za-z0-9]/_}
    servers+="    server $name $remote cookie $name"$'\n'
done

while IFS= read -r line; do
    case $line in
        @SERVERS@) printf '%s' "$servers" ;;
        *) line=${line//@PORT@/$port}; echo "${line//@BIND@/$bind}" ;;
    esac
done <"$root/deploy/haproxy.cfg.in" >"$run/haproxy.cfg"

healthy() {  # replica $1 answers /_stcore/health
    "$python" -c 'import sys, urllib.request; urllib.request.urlopen(sys.argv[1], timeout=2)' \
        "http://127.0.0.1:$((port + $1))/_stcore/health" 2>/dev/null
}
for i in "${!pids[@]}"; do
    until healthy "$i"; do
        kill -0 "${pids[i]}" 2>/dev/null || { echo "replica $i failed: $run/replica-$i.log" >&2; exit 1; }
        sleep 1
    done
done

"$haproxy" -c -q -f "$run/haproxy.cfg"
"$haproxy" -db -f "$run/haproxy.cfg" &
haproxy_pid=$!
echo "$haproxy_pid" >"$run/haproxy.pid"
echo "serving http://$bind:$port/ ($replicas replicas, ${#remotes[@]} remote; run dir $run)"

# A replica that dies stays down: HAProxy's health checks take it out and its sessions move to
# the others (the page reloads there; ui/failover.py). Stop when HAProxy stops.
wait "$haproxy_pid" || true
echo "haproxy exited; stopping the replicas" >&2
