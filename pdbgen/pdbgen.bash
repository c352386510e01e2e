# bash completion for loyd's pdbgen (installed as share/bash-completion/completions/pdbgen).
_loyd_pdbgen() {
    local cur prev cmd
    cur=${COMP_WORDS[COMP_CWORD]}
    prev=${COMP_WORDS[COMP_CWORD-1]}
    cmd=${COMP_WORDS[1]}
    if [ "$COMP_CWORD" -eq 1 ]; then
        COMPREPLY=($(compgen -W "build presets info verify pack unpack package --help --version" -- "$cur"))
        return
    fi
    case $prev in
        -p|--preset) COMPREPLY=($(compgen -W "$("${COMP_WORDS[0]}" presets 2>/dev/null | awk 'NR > 1 && !/^~|^\(/ {print $1}')" -- "$cur")); return ;;
        --kind) COMPREPLY=($(compgen -W "additive full" -- "$cur")); return ;;
        --metric) COMPREPLY=($(compgen -W "stm mtm" -- "$cur")); return ;;
        --encoding) COMPREPLY=($(compgen -W "zstd raw" -- "$cur")); return ;;
        -g|--goal) COMPREPLY=($(compgen -W "blank-last blank-first" -- "$cur")); return ;;
        -o|--out|--against|--checkpoint) COMPREPLY=($(compgen -d -- "$cur")); return ;;
    esac
    if [[ $cur == -* ]]; then
        case $cmd in
            build) COMPREPLY=($(compgen -W "--preset --size --goal --pattern --kind --metric --name --out --encoding
                --level --max-memory --force --no-wait --checkpoint --jobs --quiet --help" -- "$cur")) ;;
            verify) COMPREPLY=($(compgen -W "--against --jobs --quiet --help" -- "$cur")) ;;
            pack) COMPREPLY=($(compgen -W "--level --quiet --help" -- "$cur")) ;;
            *) COMPREPLY=($(compgen -W "--help --quiet" -- "$cur")) ;;
        esac
    else
        COMPREPLY=($(compgen -f -- "$cur"))
    fi
}
complete -F _loyd_pdbgen pdbgen
