#!/usr/bin/env bash
# The Debian packages as a user gets them: attnscope (amd64: the programs) and attnscope-models
# (all: the models). Builds them (./build.sh package; --no-build checks those in build/), then
# checks:
#   - dpkg-deb --info/--contents: every file in its package; attnscope Depends on attnscope-models
#     of its version, libtorch, Qt, OpenBLAS and no -dev package; attnscope-models is
#     Architecture: all; each has its copyright (crediting the models' training data) and changelog;
#   - apt-get --simulate: both install together on this machine, attnscope alone does not;
#   - desktop-file-validate and appstreamcli validate --no-net: clean;
#   - lintian: no error, no warning but those docs/install.md accepts, no big /usr/share in an
#     architecture-dependent package;
#   - the man pages: every option of every --help (each attnscope-cli command's too) is in them;
#   - the bash completion: commands, options, score names, files;
#   - dpkg -x of both into a scratch root: attnscope-cli --version, models (found in the root's
#     usr/share/attnscope/models, not the source tree) and translate, a subword model included
#     (its SentencePiece plugin loaded from the root), and the app's --version.
# Prints each check; exits 1 at the first that fails.
set -euo pipefail
cd "$(dirname "$0")/../.."
if [ "${1:-}" != --no-build ]; then ./build.sh package; fi

version=$(sed -n 's/^project(attnscope VERSION \([0-9.]*\).*/\1/p' CMakeLists.txt)
deb=build/attnscope_${version}_amd64.deb
models_deb=build/attnscope-models_${version}_all.deb
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
fail() {
  echo "check-package: FAILED: $*" >&2
  exit 1
}
ok() { echo "check-package: ok: $*"; }
for package in "$deb" "$models_deb"; do
  [ -f "$package" ] || fail "no $package"
  ok "$package ($(du -h "$package" | cut -f1))"
done

# The control fields.
field() { sed -n "s/^ $1: //p" <<<"$2"; }
info=$(dpkg-deb --info "$deb")
models_info=$(dpkg-deb --info "$models_deb")
depends=$(field Depends "$info")
[ "$(field Package "$info")" = attnscope ] || fail "the package is not named attnscope"
[ "$(field Package "$models_info")" = attnscope-models ] \
  || fail "the models' package is not named attnscope-models"
for control in "$info" "$models_info"; do
  [ "$(field Version "$control")" = "$version" ] || fail "Version is not $version"
done
[ "$(field Architecture "$info")" = amd64 ] || fail "attnscope is not Architecture: amd64"
[ "$(field Architecture "$models_info")" = all ] || fail "attnscope-models is not Architecture: all"
grep -qE "(^|, )attnscope-models \(= $version\)(,|$)" <<<"$depends" \
  || fail "Depends lacks attnscope-models (= $version): $depends"
for needed in libtorch1.13 libqt6widgets6 libqt6svg6 libqcustomplot libsentencepiece0 \
  libopenblas0-openmp; do
  grep -q "$needed" <<<"$depends" || fail "Depends lacks $needed: $depends"
done
if grep -qE -- '-dev\b' <<<"$depends"; then fail "Depends has a -dev package: $depends"; fi
models_depends=$(field Depends "$models_info")
[ -z "$models_depends" ] || fail "attnscope-models depends on something: $models_depends"
ok "attnscope Depends: $depends; attnscope-models: Architecture all, no Depends"

# The files, each in its package.
contents=$(dpkg-deb --contents "$deb" | awk '{ print $6 }')
models_contents=$(dpkg-deb --contents "$models_deb" | awk '{ print $6 }')
for file in usr/bin/attnscope usr/bin/attnscope-cli \
  usr/lib/attnscope/libattnscope_sentencepiece.so \
  usr/share/applications/attnscope.desktop \
  usr/share/icons/hicolor/{48x48,128x128,256x256}/apps/attnscope.png \
  usr/share/icons/hicolor/scalable/apps/attnscope.svg \
  usr/share/metainfo/io.github.attnscope.attnscope.metainfo.xml \
  usr/share/man/man1/attnscope.1.gz usr/share/man/man1/attnscope-cli.1.gz \
  usr/share/bash-completion/completions/attnscope-cli \
  usr/share/doc/attnscope/copyright usr/share/doc/attnscope/changelog.gz \
  usr/share/doc/attnscope/README.md usr/share/doc/attnscope/docs/{index,app,install}.md \
  usr/share/doc/attnscope/docs/screenshots/main-window.png; do
  grep -qx "./$file" <<<"$contents" || fail "attnscope lacks /$file"
done
for file in usr/share/attnscope/models/{dot,general,additive,scaled_dot,cosine,location,none}.attnmodel \
  usr/share/attnscope/models/en-fr/{additive,none}.attnmodel \
  usr/share/doc/attnscope-models/copyright usr/share/doc/attnscope-models/changelog.gz; do
  grep -qx "./$file" <<<"$models_contents" || fail "attnscope-models lacks /$file"
done
stray=$(grep '/usr/share/attnscope/models/.' <<<"$contents" || true)
[ -z "$stray" ] || fail "attnscope holds models: $stray"
stray=$(grep -v '/$' <<<"$models_contents" |
  grep -vE '^\./usr/share/(attnscope/models|doc/attnscope-models)/' || true)
[ -z "$stray" ] || fail "attnscope-models holds more than the models: $stray"
ok "every file in its package ($(grep -cv '/$' <<<"$contents") in attnscope," \
  "$(grep -cv '/$' <<<"$models_contents") in attnscope-models)"

dpkg -x "$deb" "$scratch/root"
dpkg -x "$models_deb" "$scratch/root"
root=$scratch/root
# Both copyright files credit the models' training data, in a stanza of their own.
for package in attnscope attnscope-models; do
  copyright=$root/usr/share/doc/$package/copyright
  grep -qx 'Files: usr/share/attnscope/models/\*' "$copyright" \
    || fail "$package's copyright has no Files: stanza for the models"
  for credit in 'Multi30k' 'Elliott' 'Tatoeba Project' 'CC BY 2.0 FR' 'tatoeba.org' \
    'www.manythings.org/anki'; do
    grep -q "$credit" "$copyright" || fail "$package's copyright does not credit '$credit'"
  done
done
ok "copyright of both: the models' stanza credits Multi30k and Tatoeba (CC BY 2.0 FR)"

# Both install together with apt, on this machine's dpkg database (simulated: nothing installed);
# attnscope without its models does not.
apt-get install --simulate --no-install-recommends "./$deb" "./$models_deb" >"$scratch/apt" 2>&1 \
  || fail "apt-get install of both: $(cat "$scratch/apt")"
for package in attnscope attnscope-models; do
  grep -qE "^Inst $package( |$)" "$scratch/apt" \
    || fail "apt-get install of both would not install $package: $(cat "$scratch/apt")"
done
if ! dpkg-query -W -f='${Status}' attnscope-models 2>/dev/null | grep -q 'install ok installed'; then
  if apt-get install --simulate --no-install-recommends "./$deb" >"$scratch/apt-alone" 2>&1; then
    fail "apt-get would install attnscope without attnscope-models"
  fi
  grep -q 'attnscope-models' "$scratch/apt-alone" \
    || fail "apt-get refused attnscope alone, but not for its models: $(cat "$scratch/apt-alone")"
fi
ok "apt-get --simulate: both install together ($(grep -c '^Inst ' "$scratch/apt") packages);" \
  "attnscope alone does not"

for size in 48 128 256; do
  got=$(identify -format '%wx%h' "$root/usr/share/icons/hicolor/${size}x${size}/apps/attnscope.png")
  [ "$got" = "${size}x${size}" ] || fail "the ${size} px icon is $got"
done
ok "icons 48, 128, 256 px and SVG"

# The validators.
desktop=$(desktop-file-validate "$root/usr/share/applications/attnscope.desktop" 2>&1) \
  || fail "desktop-file-validate: $desktop"
[ -z "$desktop" ] || fail "desktop-file-validate is not clean: $desktop"
ok "desktop-file-validate: clean"
metainfo=$root/usr/share/metainfo/io.github.attnscope.attnscope.metainfo.xml
appstreamcli validate --no-net --pedantic "$metainfo" >"$scratch/appstream" 2>&1 \
  || fail "appstreamcli validate: $(cat "$scratch/appstream")"
grep -q "<release version=\"$version\"" "$metainfo" || fail "the metainfo has no release $version"
ok "appstreamcli validate --no-net --pedantic: $(tail -1 "$scratch/appstream")"

# lintian: warnings accepted in docs/install.md, each for a reason given there. With the models in
# their own package, no tag about a big /usr/share in the architecture-dependent one, not even as
# information.
accepted='maintscript-calls-ldconfig'
lintian --fail-on error --display-info "$deb" "$models_deb" >"$scratch/lintian" 2>&1 \
  || fail "lintian: $(cat "$scratch/lintian")"
unexpected=$(grep -E '^[EW]: ' "$scratch/lintian" | grep -vE ": ($accepted) " || true)
[ -z "$unexpected" ] || fail "lintian: $unexpected"
if grep -q 'arch-dep-package-has-big-usr-share' "$scratch/lintian"; then
  fail "lintian: $(grep 'arch-dep-package-has-big-usr-share' "$scratch/lintian")"
fi
ok "lintian (both): no error; warnings: $(grep -c '^W: ' "$scratch/lintian" || true) accepted;" \
  "no arch-dep-package-has-big-usr-share"

# The man pages: every option each program's --help lists, in its page, and no groff warning.
export PATH="$root/usr/bin:$PATH" QT_QPA_PLATFORM=offscreen
unset ATTNSCOPE_MODEL_DIR
options_of() { grep -oE -- '^  (-[a-z], ?|-[a-z],)?--[a-z0-9-]+' | grep -oE -- '--?[a-z0-9-]+'; }
check_page() {
  local page=$1
  shift
  local text
  text=$(zcat "$root/usr/share/man/man1/$page.1.gz" | sed 's/\\-/-/g; s/\\f[BIR]//g')
  warnings=$(LC_ALL=C.UTF-8 MANWIDTH=100 man --warnings=w -l "$root/usr/share/man/man1/$page.1.gz" 2>&1 >/dev/null)
  [ -z "$warnings" ] || fail "$page.1: $warnings"
  for command in "" "$@"; do
    # shellcheck disable=SC2086  # no command: no argument
    for option in $("$page" $command --help 2>/dev/null | options_of); do
      grep -qE -- "(^|[ ,])$option([ ,]|$)" <<<"$text" || fail "$page.1 lacks ${command:+$command }$option"
    done
  done
}
mapfile -t cli_commands < <(attnscope-cli --help |
  sed -n '/^Subcommands:/,/^$/s/^  \([a-z]\+\) .*/\1/p')
check_page attnscope-cli "${cli_commands[@]}"
check_page attnscope
ok "man pages: every option of attnscope --help and attnscope-cli [${cli_commands[*]}] --help"

# The bash completion, as bash-completion calls it.
completion=$(bash -c '
  source /usr/share/bash-completion/bash_completion
  source "$1/usr/share/bash-completion/completions/attnscope-cli"
  complete_line() {
    COMP_WORDS=("$@"); COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
    COMP_LINE="$*"; COMP_POINT=${#COMP_LINE}; COMPREPLY=()
    _attnscope_cli
    echo "${COMPREPLY[*]}"
  }
  cd "$1/usr/share/attnscope"
  complete_line attnscope-cli ""
  complete_line attnscope-cli translate --sc
  complete_line attnscope-cli translate --score ""
  complete_line attnscope-cli eval --model mo
' _ "$root")
mapfile -t lines <<<"$completion"
# Every command the program lists, as the man page check above reads them, then the two options;
# and among them the commands other tools call, so a command lost from --help fails here too.
[[ ${lines[0]} == "${cli_commands[*]} --help --version" ]] \
  || fail "completion of commands: ${lines[0]}"
for command in translate explain train eval align models export bench average; do
  [[ " ${lines[0]} " == *" $command "* ]] || fail "completion of commands: no $command in ${lines[0]}"
done
[ "${lines[1]}" = --score ] || fail "completion of an option: ${lines[1]}"
[ "${lines[2]}" = "dot general additive scaled_dot cosine location none" ] \
  || fail "completion of score names: ${lines[2]}"
[ "${lines[3]}" = models ] || fail "completion of a file: ${lines[3]}"
ok "bash completion: commands, options, score names, files"

# The programs from the scratch root.
[ "$(attnscope-cli --version)" = "attnscope-cli $version" ] || fail "attnscope-cli --version"
[ "$(attnscope --version)" = "attnscope $version" ] || fail "attnscope --version"
ok "attnscope-cli --version, attnscope --version: $version"
models=$(attnscope-cli models)
[ "$(grep -c " en-de .*$root/usr/share/attnscope/models/" <<<"$models")" = 7 ] \
  && [ "$(grep -c " en-fr .*$root/usr/share/attnscope/models/en-fr/" <<<"$models")" = 2 ] \
  || fail "models not found in the scratch root: $models"
ok "attnscope-cli models: 7 en-de and 2 en-fr in $root/usr/share/attnscope/models"
translation=$(attnscope-cli translate "A dog runs.")
[ -n "$translation" ] || fail "translate printed nothing"
# dot is a subword model: its SentencePiece plugin comes from the root, not the build tree.
subwords=$(LD_DEBUG=files attnscope-cli translate --score dot "A dog runs." 2>"$scratch/ld")
grep -q "file=$root/usr/lib/attnscope/libattnscope_sentencepiece.so" "$scratch/ld" \
  || fail "the SentencePiece plugin was not loaded from the scratch root"
ok "attnscope-cli translate 'A dog runs.': $translation; dot (subwords): $subwords"
echo "check-package: all checks passed"
