"""Writes a pure-Python wheel pip installs offline, for tests of what installs layer
versions (scripts/layers.sh --wheels, hostcb bisect): write_wheel(folder, "cuda-bindings",
"1.0", {"module.py": "text"}) makes folder/cuda_bindings-1.0-py3-none-any.whl."""
import os
import zipfile


def write_wheel(folder, dist, version, files):
    os.makedirs(folder, exist_ok=True)
    name = dist.replace("-", "_")
    info = f"{name}-{version}.dist-info"
    files = dict(files)
    files[f"{info}/METADATA"] = f"Metadata-Version: 2.1\nName: {dist}\nVersion: {version}\n"
    files[f"{info}/WHEEL"] = "Wheel-Version: 1.0\nGenerator: test\nRoot-Is-Purelib: true\nTag: py3-none-any\n"
    files[f"{info}/RECORD"] = "".join(f"{path},,\n" for path in files) + f"{info}/RECORD,,\n"
    path = os.path.join(folder, f"{name}-{version}-py3-none-any.whl")
    with zipfile.ZipFile(path, "w") as whl:
        for member, text in files.items():
            whl.writestr(member, text)
    return path
