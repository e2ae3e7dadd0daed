"""The layer modules' tests (test_layer_modules.py) use fakes under real package names (cupy,
numba, cuda); they must pass however python3 is set up, even beside real packages whose .pth
files install import hooks (numba-cuda's redirects `numba.cuda`: issue 26 item 17). Made
here: a venv whose site-packages has such a hook, refusing every faked name. The hook is
checked to work, then test_layer_modules.py must pass under that venv's python.

Run: python3 tests/py/test_fakes_isolation.py ROOT WORK_DIR
"""
import os
import shutil
import subprocess
import sys

ROOT, WORK = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
HOOK = '''import sys

class RealPackageHook:
    """What a real package's .pth may install: a finder that claims the faked names."""
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in ("cupy", "numba", "numba_cuda_mlir", "cuda"):
            raise ImportError("a real package's import hook saw " + name)
        return None

sys.meta_path.insert(0, RealPackageHook())
'''

shutil.rmtree(WORK, ignore_errors=True)
venv = os.path.join(WORK, "venv")
subprocess.run([sys.executable, "-m", "venv", "--without-pip", venv], check=True)
python = os.path.join(venv, "bin", "python3")
site = subprocess.run([python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                      check=True, capture_output=True, text=True).stdout.strip()
with open(os.path.join(site, "real_package_hook.py"), "w") as f:
    f.write(HOOK)
with open(os.path.join(site, "real_package_hook.pth"), "w") as f:
    f.write("import real_package_hook\n")

# The hook works: an import of a faked name in that venv meets it.
probe = subprocess.run([python, "-c", "import numba"], capture_output=True, text=True)
if probe.returncode == 0 or "a real package's import hook saw numba" not in probe.stderr:
    sys.exit("the stand-in for a real package's hook did not act: %r" % probe.stderr)

tests = subprocess.run([python, os.path.join(ROOT, "tests", "py", "test_layer_modules.py"), ROOT],
                       capture_output=True, text=True)
sys.stderr.write(tests.stderr[-3000:])
if tests.returncode != 0:
    sys.exit("test_layer_modules.py failed beside a real package's import hook (exit %d)" % tests.returncode)
print("test_layer_modules.py passed beside a real package's import hook")
