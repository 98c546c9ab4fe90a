# Sourced by the CLI tests that need a model whose outputs are NaN (a diverged run, a
# damaged file): nan_model SOURCE.pt OUT.pt writes a copy of a model file with every stored
# tensor filled with NaN. A model file is a zip archive; python3's zipfile rewrites it (no
# PyTorch needed). Returns non-zero when python3 is missing.
nan_model() {
  command -v python3 > /dev/null || return 1
  python3 - "$1" "$2" <<'PY'
import struct, sys, zipfile
src, out = sys.argv[1], sys.argv[2]
with zipfile.ZipFile(src) as a, zipfile.ZipFile(out, "w", zipfile.ZIP_STORED) as b:
    for info in a.infolist():
        data = a.read(info.filename)
        if "/data/" in info.filename:
            data = struct.pack("<f", float("nan")) * (len(data) // 4)
        b.writestr(info.filename, data)
PY
}
