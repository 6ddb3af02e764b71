#!/usr/bin/env bash
# The library's public functions whose error is a bare String (`Result<_, String>`): every
# `pub fn` under DIR (default src/) whose return type is a Result with the error type String,
# signatures over several lines included, and the public fields of that type. The binary's
# files (main.rs, cli.rs, commands/) are left out: there a String is the message printed.
# Prints FILE:LINE: signature for each, then the count. Lexical: a `pub fn` in a module that
# is not public counts too (an upper bound of what a library user reaches).
#   bash scripts/string-errors.sh [DIR]
set -euo pipefail
dir="${1:-src}"
find "$dir" -name '*.rs' ! -path '*/commands/*' ! -name main.rs ! -name cli.rs | sort |
  while read -r file; do
    perl -0777 -ne '
      sub err_of {   # the error type of the first Result<..> in the text, or ""
        my ($t) = @_;
        return "" unless $t =~ /\bResult\s*</g;
        my ($depth, $err, $seen) = (0, "", 0);
        for my $c (split //, substr($t, pos($t))) {
          if ($c =~ /[<(\[]/) { $depth++ }
          elsif ($c =~ /[>)\]]/) { last if $depth == 0; $depth-- }
          elsif ($c eq "," && $depth == 0) { $seen = 1; next }
          $err .= $c if $seen;
        }
        $err =~ s/^\s+|\s+$//g;
        return $err;
      }
      sub at { 1 + (substr($_, 0, $_[0]) =~ tr/\n//) }
      while (/^([ \t]*pub(?:\s+(?:const|async|unsafe))*\s+fn\b[^{;]*)/mg) {
        my ($sig, $at) = ($1, $-[1]);
        (my $flat = $sig) =~ s/\s+/ /g;
        $flat =~ s/^ //;
        next unless $flat =~ /->(.*)$/;
        print "$ARGV:", at($at), ": $flat\n" if err_of($1) eq "String";
      }
      while (/^[ \t]*pub\s+\w+\s*:\s*([^,\n]*Result\s*<[^\n]*)/mg) {
        my ($ty, $at) = ($1, $-[0]);
        (my $flat = $ty) =~ s/\s+$//;
        print "$ARGV:", at($at), ": field: $flat\n" if err_of($ty) eq "String";
      }
    ' "$file"
  done > "${TMPDIR:-/tmp}/string-errors.$$"
cat "${TMPDIR:-/tmp}/string-errors.$$"
echo "count: $(wc -l < "${TMPDIR:-/tmp}/string-errors.$$")"
rm -f "${TMPDIR:-/tmp}/string-errors.$$"
