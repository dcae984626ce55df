"""Read files from a source that is either a plain folder or a bare git directory
(the newest commit, HEAD).  Standard library only."""
import os
import subprocess


class Source:
    def __init__(self, path):
        self.path = path
        self.is_git = os.path.isfile(os.path.join(path, "HEAD")) and os.path.isdir(os.path.join(path, "objects"))
        if self.is_git:
            self.commit = self._git("rev-parse", "HEAD").decode().strip()
        else:
            self.commit = None

    def _git(self, *args):
        return subprocess.run(["git", "--git-dir", self.path, *args], check=True,
                              stdout=subprocess.PIPE).stdout

    def files(self):
        """Every file path (relative, '/'-separated), sorted."""
        if self.is_git:
            # regular files only: a symbolic link's blob is its target path, not a text
            return sorted(p for p, (mode, _oid) in self.blob_ids().items() if mode in ("100644", "100755"))
        found = []
        for root, _dirs, names in os.walk(self.path):
            for n in names:
                if os.path.islink(os.path.join(root, n)):
                    continue
                found.append(os.path.relpath(os.path.join(root, n), self.path).replace(os.sep, "/"))
        return sorted(found)

    def blob_ids(self):
        """path -> git blob id (git sources only)."""
        out = self._git("ls-tree", "-r", "-z", "HEAD").decode("utf-8", "surrogateescape")
        ids = {}
        for rec in out.split("\0"):
            if not rec:
                continue
            meta, path = rec.split("\t", 1)
            mode, kind, oid = meta.split()
            if kind == "blob":
                ids[path] = (mode, oid)
        return ids

    def read(self, rel):
        """The file's bytes."""
        if self.is_git:
            return self._git("show", "HEAD:" + rel)
        with open(os.path.join(self.path, rel), "rb") as f:
            return f.read()
