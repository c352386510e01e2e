# bash completion for loyd's solver (installed as share/bash-completion/completions/solver).
_loyd_solver() {
    local cur prev
    cur=${COMP_WORDS[COMP_CWORD]}
    prev=${COMP_WORDS[COMP_CWORD-1]}
    case $prev in
        --heuristic) COMPREPLY=($(compgen -W "misplaced manhattan linear-conflict pdb" -- "$cur")); return ;;
        -a|--algorithm) COMPREPLY=($(compgen -W "ida astar" -- "$cur")); return ;;
        -g|--goal) COMPREPLY=($(compgen -W "blank-last blank-first" -- "$cur")); return ;;
        --lookups) COMPREPLY=($(compgen -W "all regular,reflected regular,reflected,dual,dual-reflected regular" -- "$cur")); return ;;
        -i|--input|--html) COMPREPLY=($(compgen -f -- "$cur")); return ;;
        --pdb|--cache-dir) COMPREPLY=($(compgen -d -- "$cur")); return ;;
        -s|--size) COMPREPLY=($(compgen -W "3x3 4x4 5x5 2x3 3x4 4x3 2x4 4x2 2x5 5x2" -- "$cur")); return ;;
        -j|--jobs|--node-limit|--max-nodes|--time-limit) return ;;
    esac
    if [[ $cur == -* ]]; then
        COMPREPLY=($(compgen -W "--help --version --input --size --goal --heuristic --pdb --cache-dir
            --lookups --no-reflect --no-prune --no-bpmx --jobs --algorithm --node-limit --max-nodes
            --time-limit --show --html --no-progress --quiet --json" -- "$cur"))
    fi
}
complete -F _loyd_solver solver
