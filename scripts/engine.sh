# Shared by the benchmark scripts that compare two engines: sourced, not
# run. `engine WHAT` prints the path of a binary: WHAT itself if it is an
# executable, else the release build of the git revision WHAT, made once
# in its own worktree under $builds.
# An engine: the binary given, or the release build of a git revision.
engine() {
    local what=$1
    if [[ -f $what && -x $what ]]; then
        echo "$what"
        return
    fi
    local rev
    if ! rev=$(git rev-parse --verify --quiet "$what^{commit}"); then
        echo "'$what' is neither an executable nor a git revision" >&2
        return 2
    fi
    local tree=$builds/$rev
    if [[ ! -x $tree/target/release/optimoo ]]; then
        mkdir -p "$builds"
        [[ -d $tree ]] || git worktree add --detach "$tree" "$rev" >&2
        (cd "$tree" && cargo build --release --locked --quiet --bin optimoo) >&2
    fi
    echo "$tree/target/release/optimoo"
}
