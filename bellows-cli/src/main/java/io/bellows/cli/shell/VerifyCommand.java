package io.bellows.cli.shell;

import io.bellows.engine.VerifyReport;

/**
 * {@code verify}: the online scrub. Checks every block of every sorted file, each store's manifest
 * and the closed WAL files while the engine runs, and prints each damage (file, offset, what is
 * wrong) in the two-column layout of the other commands, then what was checked.
 */
public record VerifyCommand() implements Command {
  @Override
  public void execute(ShellContext ctx) {
    VerifyReport r = ctx.engine().verify();
    TablePrinter p = ctx.printer();
    String checked = "Checked " + r.stores() + " store(s): " + r.manifests() + " manifest(s), " + r.files()
        + " sorted file(s) (" + r.blocks() + " block(s), " + r.cells() + " cell(s)), " + r.walFiles() + " WAL file(s)";
    if (r.clean()) {
      p.line(checked + "; no damage");
      return;
    }
    p.header("FILE", "DAMAGE");
    for (VerifyReport.Damage d : r.damages()) {
      p.row(d.file(), (d.offset() >= 0 ? "offset=" + d.offset() + ", " : "") + d.problem());
    }
    p.line(checked + "; " + r.damages().size() + " damage(s): close the engine and run `bellows repair DIR` to see"
        + " what --fix would do");
  }
}
