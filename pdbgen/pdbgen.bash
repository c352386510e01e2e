# bash completion for loyd's pdbgen (installed as share/bash-completion/completions/pdbgen).
_loyd_pdbgen() {
    local cur prev cmd
    cur=${COMP_WORDS[COMP_CWORD]}
    prev=${COMP_WORDS[COMP_CWORD-1]}
    cmd=${COMP_WORDS[1]}
    if [ "$COMP_CWORD" -eq 1 ]; then
        COMPREPLY=($(compgen -W "build presets suggest info verify pack unpack package combine --help --version" -- "$cur"))
        return
    fi
    case $prev in
        -p|--preset) COMPREPLY=($(compgen -W "$("${COMP_WORDS[0]}" presets 2>/dev/null | awk 'NR > 1 && $2 ~ /^[0-9][0-9,]*$/ {print $1}')" -- "$cur")); return ;;
        --kind) COMPREPLY=($(compgen -W "additive full" -- "$cur")); return ;;
        --metric) COMPREPLY=($(compgen -W "stm mtm" -- "$cur")); return ;;
        --encoding) COMPREPLY=($(compgen -W "zstd raw" -- "$cur")); return ;;
        --entries) COMPREPLY=($(compgen -W "compact byte" -- "$cur")); return ;;
        --layout) COMPREPLY=($(compgen -W "dense cells" -- "$cur")); return ;;
        -g|--goal) COMPREPLY=($(compgen -W "blank-last blank-first" -- "$cur")); return ;;
        -o|--out|--checkpoint) COMPREPLY=($(compgen -d -- "$cur")); return ;;
        --against|--reuse) COMPREPLY=($(compgen -f -- "$cur")); return ;;  # a folder or a manifest
    esac
    if [[ $cur == -* ]]; then
        # Each command's own options (pdbgen refuses another command's: options.cc).
        case $cmd in
            build) COMPREPLY=($(compgen -W "--preset --size --goal --pattern --kind --metric --name --encoding
                --max-memory --force --reuse --checkpoint --out --entries --layout --no-wait --level --jobs --quiet --help" -- "$cur")) ;;
            suggest) COMPREPLY=($(compgen -W "--size --goal --sizes --top --candidates --jobs --quiet --help" -- "$cur")) ;;
            verify) COMPREPLY=($(compgen -W "--against --jobs --quiet --help" -- "$cur")) ;;
            info) COMPREPLY=($(compgen -W "--scores --jobs --quiet --help" -- "$cur")) ;;
            pack) COMPREPLY=($(compgen -W "--entries --layout --no-wait --level --jobs --quiet --help" -- "$cur")) ;;
            unpack) COMPREPLY=($(compgen -W "--entries --layout --no-wait --jobs --quiet --help" -- "$cur")) ;;
            package) COMPREPLY=($(compgen -W "--out --no-wait --quiet --help" -- "$cur")) ;;
            combine) COMPREPLY=($(compgen -W "--out --name --no-wait --quiet --help" -- "$cur")) ;;
            *) COMPREPLY=($(compgen -W "--help --quiet" -- "$cur")) ;;
        esac
    else
        COMPREPLY=($(compgen -f -- "$cur"))
    fi
}
complete -F _loyd_pdbgen pdbgen
