# SPDX-License-Identifier: MIT
# tests/browser/lib-chromium.sh: runs headless Chromium for the tests (POSIX
# sh, sourced). Every run is bounded by timeout(1), uses a private profile
# under the caller's directory and runs in a process group of its own, which
# is killed when the run ends or the caller is interrupted: no browser process
# outlives it.
#
#   LMB_BROWSER_DIR=.../tests/browser    # where check-page.js is (default: $0's directory)
#   . "$LMB_BROWSER_DIR/lib-chromium.sh"
#   lmb_chromium_find || echo "no chromium"        # sets LMB_CHROMIUM
#   trap 'lmb_chromium_kill' EXIT; trap 'exit 130' INT
#   lmb_chromium DIR SECONDS --dump-dom "file://$PWD/x.html" >dom
#   lmb_browser_check DIR PAGE... >findings         # tests/browser/check-page.js
#   lmb_browser_shot DIR PAGE PLOT_ID WIDTH HEIGHT OUT.png
#   lmb_browser_shots DIR PAGE FINDINGS OUTDIR     # one PNG per plot type
#
# LMB_CHROMIUM_TAG, when set, goes into the browser's environment as
# LMB_TEST_TAG (else the caller's LMB_TEST_TAG is inherited), so that a test
# can look for processes left behind (tests/cli/lib.sh's tagged_pids).

LMB_BROWSER_DIR=${LMB_BROWSER_DIR:-$(cd "$(dirname "$0")" && pwd)}
_lmb_chrome_pgid=
_lmb_chrome_n=0

# Sets LMB_CHROMIUM to the first browser found (or $CHROMIUM); returns 1 if none.
lmb_chromium_find() {
    LMB_CHROMIUM=
    for _c in ${CHROMIUM:-} chromium chromium-browser google-chrome; do
        if command -v "$_c" >/dev/null 2>&1; then
            LMB_CHROMIUM=$_c
            return 0
        fi
    done
    return 1
}

# Kills the browser's process group, if one is running, and every process
# that still shows this run's LMB_CHROME_RUN marker in its environment: the
# helpers that left the group (Chromium's crash handlers start sessions of
# their own). (Chromium's own processes overwrite their environment with
# their titles: the group is what finds them.)
lmb_chromium_kill() {
    if [ -n "$_lmb_chrome_pgid" ]; then
        # -s: dash's kill reads "-TERM -- -PGID" as a bad number and kills
        # nothing (so the group outlived an interrupted check).
        kill -s TERM -- "-$_lmb_chrome_pgid" 2>/dev/null
        kill -s KILL -- "-$_lmb_chrome_pgid" 2>/dev/null
        kill -KILL "$_lmb_chrome_pgid" 2>/dev/null
        _lmb_chrome_pgid=
    fi
    if [ -n "${_lmb_chrome_run:-}" ]; then
        for _p in $(grep -lsazxF -- "LMB_CHROME_RUN=$_lmb_chrome_run" /proc/[0-9]*/environ 2>/dev/null |
            sed -e 's|^/proc/||' -e 's|/environ$||'); do
            [ "$_p" != "$$" ] && kill -KILL "$_p" 2>/dev/null
        done
    fi
}

# lmb_chromium DIR SECONDS ARGS...: runs the browser headless on ARGS with a
# new profile DIR/profile.N, at most SECONDS; stdout as the browser's, stderr
# into DIR/chromium.N.err. Returns the browser's status (124: it ran too long).
lmb_chromium() {
    _dir=$1
    _limit=$2
    shift 2
    _lmb_chrome_n=$((_lmb_chrome_n + 1))
    _prof=$_dir/profile.$_lmb_chrome_n
    mkdir -p "$_prof" || return 1
    # timeout(1) puts itself and the browser into a process group of their
    # own (its pid) and kills that group when the time is up.
    _lmb_chrome_run=$$.$_lmb_chrome_n.$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')
    env LMB_TEST_TAG="${LMB_CHROMIUM_TAG:-${LMB_TEST_TAG:-}}" LMB_CHROME_RUN="$_lmb_chrome_run" \
        DBUS_SESSION_BUS_ADDRESS=disabled: \
        timeout -k 5 "$_limit" "$LMB_CHROMIUM" --headless --no-sandbox --disable-gpu \
        --disable-background-networking --disable-component-update --disable-sync \
        --disable-default-apps --disable-extensions --no-first-run --no-default-browser-check \
        --disable-crash-reporter --disable-breakpad --mute-audio --hide-scrollbars \
        --user-data-dir="$_prof" "$@" 2>"$_dir/chromium.$_lmb_chrome_n.err" &
    _lmb_chrome_pgid=$!
    wait "$_lmb_chrome_pgid"
    _rc=$?
    # Whatever the browser left in its group (a helper that did not exit).
    lmb_chromium_kill
    rm -rf "$_prof"
    return "$_rc"
}

# lmb_browser_inject PAGE COPY ARG: COPY is PAGE with check-page.js as the
# first script of its <head>. Returns 1 when PAGE has no <head>.
lmb_browser_inject() {
    awk -v js="$LMB_BROWSER_DIR/check-page.js" '
        !done && match($0, /<head([ \t][^>]*)?>/) {
            printf "%s\n<script>\n", substr($0, 1, RSTART + RLENGTH - 1)
            while ((getline l < js) > 0)
                print l
            printf "</script>\n%s\n", substr($0, RSTART + RLENGTH)
            done = 1
            next
        }
        { print }
        END { exit done ? 0 : 1 }' "$1" >"$2"
}

# lmb_browser_check DIR PAGE...: loads each page (a copy with the check) in one
# browser run, as frames of a page of its own (frames.js), 1200 and 700 px
# wide, and prints the findings of check-page.js, each line prefixed with
# "PAGE: " (a problem seen only in the narrow frame ends "(at 700 px wide)");
# for a page whose check did not report, "PAGE: problem page: the check did
# not run". Returns 0 when no page has a problem, 1 when one has, 2 when the
# browser failed.
lmb_browser_check() {
    _dir=$1
    shift
    _i=0
    {
        echo '<!DOCTYPE html><html><head><meta charset="utf-8"><script>'
        cat "$LMB_BROWSER_DIR/frames.js"
        echo '</script></head><body><pre id="lmb-results"></pre>'
        for _p in "$@"; do
            if ! lmb_browser_inject "$_p" "$_dir/page.$_i.html"; then
                echo "lmb_browser_check: $_p has no <head>" >&2
                return 2
            fi
            echo "<iframe width=\"1200\" height=\"900\" src=\"page.$_i.html#lmb-check=$_i-wide\"></iframe>"
            echo "<iframe width=\"700\" height=\"900\" src=\"page.$_i.html#lmb-check=$_i-narrow\"></iframe>"
            _i=$((_i + 1))
        done
        echo '</body></html>'
    } >"$_dir/frames.html"
    lmb_chromium "$_dir" 90 --window-size=1280,1000 --virtual-time-budget=10000 \
        --dump-dom "file://$_dir/frames.html" >"$_dir/frames.dom"
    _crc=$?
    awk '/<pre id="lmb-results">/ { on = 1; sub(/.*<pre id="lmb-results">/, "") }
         on && /<\/pre>/ { sub(/<\/pre>.*/, ""); print; exit }
         on { print }' "$_dir/frames.dom" |
        sed 's/&lt;/</g; s/&gt;/>/g; s/&quot;/"/g; s/&amp;/\&/g' >"$_dir/findings"
    _i=0
    _bad=0
    for _p in "$@"; do
        if ! grep -q "^$_i	end " "$_dir/findings"; then
            echo "$_p: problem page: the check did not run (browser status $_crc)"
            _bad=1
        fi
        LMB_PAGE=$_p awk -F '\t' -v n="$_i" \
            '$1 == n { sub(/^[^\t]*\t/, ""); print ENVIRON["LMB_PAGE"] ": " $0 }' "$_dir/findings"
        grep -q "^$_i	problem " "$_dir/findings" && _bad=1
        _i=$((_i + 1))
    done
    if [ "$_crc" != 0 ]; then
        echo "lmb_browser_check: $LMB_CHROMIUM exited with status $_crc$(
            [ "$_crc" = 124 ] && echo ' (ran too long)')" >&2
        grep -v -e dbus -e '^/usr/bin/chromium: ' "$_dir/chromium.$_lmb_chrome_n.err" | tail -n 5 >&2
        return 2
    fi
    return "$_bad"
}

# lmb_browser_shot DIR PAGE PLOT_ID WIDTH HEIGHT OUT.png: a screenshot of only
# that plot of the page (check-page.js's #lmb-only=ID), WIDTH x HEIGHT pixels.
lmb_browser_shot() {
    lmb_browser_inject "$2" "$1/shot.html" || return 2
    lmb_chromium "$1" 90 --window-size="$4,$5" --virtual-time-budget=5000 \
        --screenshot="$6" "file://$1/shot.html#lmb-only=$3" >/dev/null
}

# lmb_browser_shots DIR PAGE FINDINGS OUTDIR: one screenshot per plot type of
# PAGE, from the "plot" lines lmb_browser_check printed for it (in FINDINGS):
# OUTDIR/memory-latency.png, bandwidth.png (the first bandwidth-* plot),
# context-switch.png, compare.png (the first compare-* plot), for the types
# the page has. Prints "TYPE FILE" for each; returns 2 when one failed.
lmb_browser_shots() {
    mkdir -p "$4" || return 2
    case $2 in
    /*) _page=$2 ;;
    *) _page=$(pwd)/$2 ;;
    esac
    _src=$2
    _rc=0
    for _type in memory-latency bandwidth context-switch compare; do
        case $_type in
        bandwidth | compare) _pat="$_type-[^ ]*" ;;
        *) _pat=$_type ;;
        esac
        _line=$(grep -F "$_src: plot " "$3" | grep -E "^.*: plot $_pat " | head -n 1)
        [ -n "$_line" ] || continue
        _id=$(printf '%s\n' "$_line" | sed -E 's/^.*: plot ([^ ]*) .*/\1/')
        _w=$(printf '%s\n' "$_line" | sed -E 's/.* width=([0-9]*) .*/\1/')
        _h=$(printf '%s\n' "$_line" | sed -E 's/.* height=([0-9]*)$/\1/')
        # The plot's section and the body's margins.
        if lmb_browser_shot "$1" "$_page" "$_id" $((_w + 80)) $((_h + 80)) "$4/$_type.png" &&
           [ -s "$4/$_type.png" ]; then
            echo "$_type $4/$_type.png"
        else
            echo "lmb_browser_shots: no screenshot of $_id" >&2
            _rc=2
        fi
    done
    return "$_rc"
}
