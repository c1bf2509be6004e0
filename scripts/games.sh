# Where the SPRT scripts keep a test's games, sourced by scripts/sprt.sh and scripts/chapter-sprt.sh
# (run from the repository root).
#
# arena appends each game to a plain PGN while it plays: that file lives in target/sprt/games/.
# What is committed is data/games/NAME.pgn.xz, the same PGN compressed when the run ends (however
# it ends: all games played, a verdict, Ctrl-C), beside NAME.txt, the summary with the command that
# wrote it. A later sitting resumes from the compressed games; the book links them and shows the
# summaries, and mdBook copies neither into the site.

games_dir=data/games
games_work=target/sprt/games

# games_check: xz is needed to save the games; better to know before hours of play.
games_check() {
    command -v xz >/dev/null 2>&1 || {
        echo "$0: xz is missing: it compresses the games into $games_dir (apt-get install xz-utils)" >&2
        exit 2
    }
    mkdir -p "$games_dir" "$games_work"
}

# games_fresh NAME: refuses to start a test over the games of an earlier one.
games_fresh() {
    local f
    for f in "$games_dir/$1.pgn.xz" "$games_work/$1.pgn"; do
        if [[ -e $f ]]; then
            echo "$0: $f exists: resume that test, or remove it" >&2
            exit 2
        fi
    done
}

# games_restore NAME: puts the games to resume at $games_work/NAME.pgn. The committed games are
# unpacked there unless the plain PGN already holds them and more (a run on this machine that
# ended before it could save them); a plain PGN that doesn't begin with them is another test's.
games_restore() {
    local packed=$games_dir/$1.pgn.xz plain=$games_work/$1.pgn
    [[ -f $packed ]] || return 0
    xz -dc "$packed" >"$plain.unpacked"
    if [[ -f $plain ]]; then
        if cmp -s -n "$(stat -c %s "$plain.unpacked")" "$plain.unpacked" "$plain"; then
            rm "$plain.unpacked"
            return 0
        fi
        echo "$0: $plain does not begin with the games of $packed: remove one of them" >&2
        rm "$plain.unpacked"
        exit 2
    fi
    mv "$plain.unpacked" "$plain"
}

# games_save NAME: compresses $games_work/NAME.pgn into $games_dir/NAME.pgn.xz, checking that it
# unpacks to the same bytes before it replaces the committed file.
games_save() {
    local plain=$games_work/$1.pgn packed=$games_dir/$1.pgn.xz
    [[ -f $plain ]] || return 0
    echo "== saving the games: $packed" >&2
    xz -9 -T1 -c "$plain" >"$packed.tmp"
    if ! xz -dc "$packed.tmp" | cmp -s - "$plain"; then
        echo "$0: $packed.tmp does not unpack to $plain; the games stay in $plain" >&2
        rm -f "$packed.tmp"
        return 1
    fi
    mv "$packed.tmp" "$packed"
}

# quoted WORD...: each word after a space, in single quotes where a shell would need them, for
# the summary's command line.
quoted() {
    local word q="'"
    for word in "$@"; do
        if [[ $word =~ ^[A-Za-z0-9_./=:+,@%-]+$ ]]; then
            printf ' %s' "$word"
        else
            printf " '%s'" "${word//$q/$q\\$q$q}"
        fi
    done
}
