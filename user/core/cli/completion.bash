# SPDX-License-Identifier: GPL-2.0
# The functions of ppbench's bash completion, the same for every ppbench: they
# act on the tables that completion.c writes from the option tables before
# them. The Makefile compiles this into the binary, without this header.

# COMPREPLY for KIND (and its words) and the word being completed
_ppbench_reply()
{
	local kind=$1 cur=$2
	case $kind in
	words\ *) COMPREPLY=($(compgen -W "${kind#words }" -- "$cur")) ;;
	iface) COMPREPLY=($(compgen -W "$(ls /sys/class/net 2>/dev/null)" -- "$cur")) ;;
	file) COMPREPLY=($(compgen -f -- "$cur")) ;;
	dir) COMPREPLY=($(compgen -d -- "$cur")) ;;
	*) COMPREPLY=() ;;
	esac
}

# The command line from word FIRST on (vm -- COMMAND: FIRST is COMMAND's)
_ppbench_line()
{
	local first=$1 cur=${COMP_WORDS[COMP_CWORD]} cmd=${COMP_WORDS[$1]} prev i kind
	if [ "$COMP_CWORD" -eq "$first" ]; then
		COMPREPLY=($(compgen -W "$_ppbench_commands" -- "$cur"))
		return
	fi
	if [ "$cmd" = help ]; then
		[ "$COMP_CWORD" -ne $((first + 1)) ] ||
			COMPREPLY=($(compgen -W "$_ppbench_commands" -- "$cur"))
		return
	fi
	for ((i = first + 1; i < COMP_CWORD; i++)); do
		[ "${COMP_WORDS[i]}" = -- ] || continue
		case $cmd in
		vm) _ppbench_line $((i + 1)) ;;
		env) COMPREPLY=($(compgen -c -- "$cur")) ;;
		esac
		return
	done
	# an option's value: after the option, or after its '=' (a word of its own
	# where COMP_WORDBREAKS holds '=', as by default)
	prev=${COMP_WORDS[COMP_CWORD - 1]}
	[ "$cur" != = ] || cur=
	[ "$prev" != = ] || prev=${COMP_WORDS[COMP_CWORD - 2]}
	if [[ $cur == --*=* ]]; then
		prev=${cur%%=*}
		cur=${cur#*=}
	fi
	kind=$(_ppbench_value "$cmd" "$prev")
	if [ -n "${kind:-}" ]; then
		_ppbench_reply "$kind" "$cur"
	elif [[ $cur == -* ]]; then
		COMPREPLY=($(compgen -W "$(_ppbench_options "$cmd")" -- "$cur"))
	else
		_ppbench_reply "$(_ppbench_args "$cmd")" "$cur"
	fi
}

_ppbench()
{
	COMPREPLY=()
	_ppbench_line 1
}

complete -F _ppbench ppbench
