# bash completion for placeidx (installed by `make install` into
# PREFIX/share/bash-completion/completions/placeidx).
_placeidx() {
  local cur prev words cword
  cur=${COMP_WORDS[COMP_CWORD]}
  prev=${COMP_WORDS[COMP_CWORD-1]}
  local commands="build query details inspect verify dist serve pluscode help --version"
  if [ "$COMP_CWORD" -eq 1 ]; then
    COMPREPLY=($(compgen -W "$commands" -- "$cur"))
    return
  fi
  case $prev in
    --index|-o|--output|--data|--root)
      COMPREPLY=($(compgen -f -- "$cur"))
      return ;;
  esac
  local options
  case ${COMP_WORDS[1]} in
    build) options="-o --output --pipeline --root --data --quiet --report --split-by-country --help" ;;
    query) options="--index --origin --bias-circle --bias-rect --restrict-circle --restrict-rect --types --countries --region --language --offset --max --session --json --jsonl --help" ;;
    details) options="--index --fields --language --json --help" ;;
    dist) options="--index -o --output --help" ;;
    serve) options="--index --host --port --threads --help" ;;
    pluscode) options="encode decode shorten recover help --length --ref" ;;
    help) options="build query details inspect verify dist serve pluscode" ;;
    *) options="--help" ;;
  esac
  if [[ $cur == -* ]] || [ "${COMP_WORDS[1]}" = pluscode ] || [ "${COMP_WORDS[1]}" = help ]; then
    COMPREPLY=($(compgen -W "$options" -- "$cur"))
  else
    COMPREPLY=($(compgen -f -- "$cur"))
  fi
}
complete -o filenames -F _placeidx placeidx
