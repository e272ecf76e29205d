#!/usr/bin/env bash
# Checks every relative link of README.md and docs/*.md: the file it names must exist, and a #anchor into a Markdown
# file must name one of that file's headings (GitHub's anchor rules: lower case, punctuation dropped, spaces to
# hyphens, -1, -2 ... for repeats). External links (http:, https:, mailto:) are not fetched. Links inside fenced code
# blocks and inline code are ignored.
#   e2e/check-doc-links.sh [FILE.md ...]    # default: README.md docs/*.md
# Exits 0 when every link resolves, 1 naming each broken link (file:line: link: reason), 2 on bad usage.
set -euo pipefail
export LC_ALL=C
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"

if [[ $# -gt 0 ]]; then
  files=("$@")
else
  files=(README.md docs/*.md)
fi

# The anchors of a Markdown file's headings, one per line.
anchors() {
  awk '
    /^[[:space:]]*(```|~~~)/ { fenced = !fenced; next }
    fenced || !/^#+[[:space:]]/ { next }
    {
      h = $0
      sub(/^#+[[:space:]]+/, "", h); sub(/[[:space:]]+#*[[:space:]]*$/, "", h)
      h = tolower(h)
      gsub(/[^a-z0-9 _-]/, "", h)
      gsub(/ /, "-", h)
      if (h in seen) { n = seen[h]; seen[h] = n + 1; h = h "-" n } else { seen[h] = 1 }
      print h
    }' "$1"
}

# Every link target of a Markdown file as "LINE<TAB>TARGET", outside fenced code and inline code.
links() {
  awk '
    /^[[:space:]]*(```|~~~)/ { fenced = !fenced; next }
    fenced { next }
    {
      line = $0
      gsub(/`[^`]*`/, "", line)
      while (match(line, /\]\([^)]*\)/)) {
        target = substr(line, RSTART + 2, RLENGTH - 3)
        sub(/[[:space:]].*$/, "", target)
        print NR "\t" target
        line = substr(line, RSTART + RLENGTH)
      }
    }' "$1"
}

broken=0
checked=0
for file in "${files[@]}"; do
  if [[ ! -f "$file" ]]; then
    echo "check-doc-links: no such file: $file" >&2
    exit 2
  fi
  dir="$(dirname "$file")"
  while IFS=$'\t' read -r line target; do
    [[ -z "$target" ]] && continue
    case "$target" in
      http:*|https:*|mailto:*) continue ;;
    esac
    checked=$((checked + 1))
    path="${target%%#*}"
    anchor=""
    [[ "$target" == *"#"* ]] && anchor="${target#*#}"
    if [[ -z "$path" ]]; then
      resolved="$file"
    else
      resolved="$dir/$path"
    fi
    if [[ ! -e "$resolved" ]]; then
      echo "$file:$line: $target: no such file ($resolved)"
      broken=$((broken + 1))
      continue
    fi
    if [[ -n "$anchor" && "$resolved" == *.md ]]; then
      if ! anchors "$resolved" | grep -qxF -- "$anchor"; then
        echo "$file:$line: $target: no heading with anchor #$anchor in $resolved"
        broken=$((broken + 1))
      fi
    fi
  done < <(links "$file")
done

if [[ $broken -gt 0 ]]; then
  echo "check-doc-links: $broken broken link(s) of $checked checked" >&2
  exit 1
fi
echo "check-doc-links: all $checked relative links resolve (${#files[@]} files)"
