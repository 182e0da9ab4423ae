"""ttt_backend.py - the package's PEP 517 build backend: meson-python, with its temporary build directories outside the source tree (a read-only checkout builds)."""

import tempfile

import mesonpy


class _OutsideTheSource:
    """tempfile as meson-python sees it: every temporary directory goes to
    the system's temporary directory. meson-python makes its build (or
    working) directory inside the source tree when none is given, which a
    read-only checkout refuses; -Cbuilddir does not help before 0.13, where
    the working directory stays in the source."""

    def __getattr__(self, name):
        return getattr(tempfile, name)

    @staticmethod
    def TemporaryDirectory(*args, dir=None, **kwargs):  # noqa: N802 (tempfile's name)
        return tempfile.TemporaryDirectory(*args, **kwargs)


mesonpy.tempfile = _OutsideTheSource()

if hasattr(mesonpy.Project, "with_temp_working_dir"):
    # meson-python 0.12 also writes its native file (the python to build
    # for) into the source tree when it can: it goes into the working
    # directory, outside the tree, instead (later versions write it into
    # the build directory).
    mesonpy.Project._meson_native_file = property(
        lambda project: project._working_dir / ".mesonpy-native-file.ini",
        lambda project, path: None)

# The PEP 517 hooks, as meson-python has them (build_editable since 0.13).
_HOOKS = ("build_sdist", "build_wheel", "build_editable",
          "get_requires_for_build_sdist", "get_requires_for_build_wheel",
          "get_requires_for_build_editable")
globals().update({name: getattr(mesonpy, name) for name in _HOOKS
                  if hasattr(mesonpy, name)})
