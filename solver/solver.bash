# bash completion for loyd's solver (installed as share/bash-completion/completions/solver).
_loyd_solver() {
    local cur prev cmd i common search
    cur=${COMP_WORDS[COMP_CWORD]}
    prev=${COMP_WORDS[COMP_CWORD-1]}
    cmd=solve
    for ((i = 1; i < COMP_CWORD; i++)); do
        case ${COMP_WORDS[i]} in
            solve|check|scramble|play) cmd=${COMP_WORDS[i]}; break ;;
        esac
    done
    case $prev in
        --heuristic) COMPREPLY=($(compgen -W "misplaced manhattan linear-conflict walking-distance pdb" -- "$cur")); return ;;
        --metric) COMPREPLY=($(compgen -W "stm mtm" -- "$cur")); return ;;
        -a|--algorithm) COMPREPLY=($(compgen -W "ida astar" -- "$cur")); return ;;
        -g|--goal) COMPREPLY=($(compgen -W "blank-last blank-first" -- "$cur")); return ;;
        --notation) COMPREPLY=($(compgen -W "blank tile" -- "$cur")); return ;;
        --board-format) COMPREPLY=($(compgen -W "rows flat" -- "$cur")); return ;;
        --lookups) COMPREPLY=($(compgen -W "all regular,reflected regular,reflected,dual,dual-reflected regular" -- "$cur")); return ;;
        -i|--input|--html|-o|--out|--resume|--checkpoint) COMPREPLY=($(compgen -f -- "$cur")); return ;;
        --pdb) COMPREPLY=($(compgen -f -- "$cur")); return ;;  # a set folder or its manifest
        --cache-dir) COMPREPLY=($(compgen -d -- "$cur")); return ;;
        -s|--size) COMPREPLY=($(compgen -W "3x3 4x4 5x5 2x3 3x4 4x3 2x4 4x2 2x5 5x2" -- "$cur")); return ;;
        -j|--jobs|--node-limit|--max-nodes|--time-limit|-m|--moves|-n|--seed|--max-solutions|--checkpoint-every) return ;;
        --count) [ "$cmd" = scramble ] && return ;;
    esac
    if [[ $cur == -* ]]; then
        common="--help --version --size --goal --quiet"
        search="--input --metric --notation --runs --no-runs --heuristic --pdb --cache-dir --lookups --no-reflect
            --no-prune --no-bpmx --jobs --algorithm --node-limit --max-nodes --time-limit --no-progress --json"
        case $cmd in
            check) COMPREPLY=($(compgen -W "$common $search --board-format --moves --no-optimal" -- "$cur")) ;;
            scramble) COMPREPLY=($(compgen -W "$common --board-format --count --seed" -- "$cur")) ;;
            play) COMPREPLY=($(compgen -W "$common --out" -- "$cur")) ;;
            *) COMPREPLY=($(compgen -W "$common $search --all --max-solutions --count --show --html --resume --checkpoint --checkpoint-every" -- "$cur")) ;;
        esac
    elif [ "$COMP_CWORD" -eq 1 ]; then
        COMPREPLY=($(compgen -W "solve check scramble play" -- "$cur"))
    fi
}
complete -F _loyd_solver solver
