#!/usr/bin/env bash
# Writes a man page from a program's own --help, so the page lists exactly the flags the program
# takes: usage: help-to-man.sh PROGRAM DATE SUMMARY SECTIONS [SUBCOMMAND...] > PAGE.1
#   PROGRAM     the built binary (run by its bare name, so "Usage:" says "attnscope-cli", not a path)
#   DATE        the release date for the page's header
#   SUMMARY     the NAME line's text
#   SECTIONS    a roff file appended as it is (FILES, ENVIRONMENT, SEE ALSO)
#   SUBCOMMAND  each gets a subsection under COMMANDS from `PROGRAM SUBCOMMAND --help`
# Both help formats (CLI11's and Qt's QCommandLineParser's) have the same shape: text, "Heading:"
# lines, items indented two spaces with their description after a gap of two or more spaces or
# on lines indented further. help2man reads the first help only, not each subcommand's.
set -euo pipefail
program=$1 date=$2 summary=$3 sections=$4
shift 4
name=$(basename "$program")
# The app's parser runs after QApplication, which needs a platform; offscreen needs no display.
help() { PATH="$(dirname "$program"):$PATH" QT_QPA_PLATFORM=offscreen "$name" "$@" 2>/dev/null; }
version=$(help --version | awk '{ print $NF; exit }')

# One help text as roff. level=SH: headings become sections, "Usage:" the SYNOPSIS and the
# first text the DESCRIPTION; level=SS: a subcommand's subsection, its headings in italics.
to_roff() {
  awk -v level="$1" -v title="${2:-}" '
    function esc(s) {
      gsub(/\\/, "\\e", s)
      gsub(/-/, "\\-", s)
      return s
    }
    # Lines starting with . or '\'' would be read as requests.
    function line(s) { return (s ~ /^[.'\'']/ ? "\\&" : "") s "\n" }
    # The item name bold: its first word and any further option words ("-h, --help").
    function tag(s,   n, w, i, out, bold) {
      n = split(s, w, " ")
      bold = 1
      for (i = 1; i <= n; i++) {
        if (i > 1 && w[i] !~ /^-/) bold = 0
        out = out (i > 1 ? " " : "") (bold ? "\\fB" esc(w[i]) "\\fR" : esc(w[i]))
      }
      return out
    }
    /^Usage: / {
      sub(/^Usage: /, "")
      split($0, u, " ")
      rest = substr($0, length(u[1]) + 2)
      if (level == "SS") rest = substr(rest, index(rest, " ") + 1)  # the subcommand name
      usage = usage ".PP\n.B " esc(level == "SS" ? u[1] " " title : u[1]) "\n" line(esc(rest))
      next
    }
    /^$/ { next }
    /^[A-Z][A-Za-z ]*:$/ {
      heading = substr($0, 1, length($0) - 1)
      if (level == "SH") body = body ".SH " toupper(heading) "\n"
      else body = body ".PP\n.I " heading "\n"
      next
    }
    /^  [^ ]/ {
      item = substr($0, 3)
      text = ""
      if (match(item, /  +/)) {
        text = substr(item, RSTART + RLENGTH)
        item = substr(item, 1, RSTART - 1)
      }
      body = body ".TP\n" line(tag(item)) (text != "" ? line(esc(text)) : "")
      next
    }
    /^   / { sub(/^ +/, ""); body = body line(esc($0)); next }
    heading == "" { description = description line(esc($0)); next }
    { body = body ".PP\n" line(esc($0)) }
    END {
      if (level == "SH") printf ".SH SYNOPSIS\n%s.SH DESCRIPTION\n%s%s", usage, description, body
      else printf ".SS %s\n%s%s%s", title, description, usage, body
    }'
}

echo ".\\\" Made from \`$name --help\` by dist/unix/man/help-to-man.sh: change the help, not this."
echo ".TH ${name^^} 1 $date \"attnscope $version\" \"User Commands\""
echo ".SH NAME"
echo "$name \\- $summary"
help --help | to_roff SH
if [ $# -gt 0 ]; then
  echo ".SH COMMANDS"
  for command in "$@"; do
    help "$command" --help | to_roff SS "$command"
  done
fi
cat "$sections"
