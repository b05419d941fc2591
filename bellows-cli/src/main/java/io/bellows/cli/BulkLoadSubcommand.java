package io.bellows.cli;

import io.bellows.cli.shell.BulkLoadDirectory;
import io.bellows.cli.shell.ErrorMessages;
import io.bellows.client.Bellows;
import io.bellows.config.EngineOptions;
import io.bellows.remote.RemoteEngine;
import io.bellows.remote.RemoteOptions;
import io.bellows.util.NoSuchColumnFamilyException;
import io.bellows.util.TableNotEnabledException;
import io.bellows.util.TableNotFoundException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code bellows bulk-load TABLE DIR}: the shell's {@code bulk_load} as a tool, on a data directory
 * no other process has open, or through a server.
 */
@Command(name = "bulk-load", mixinStandardHelpOptions = true,
    description = {"Loads sorted files built elsewhere (BulkFileWriter) into TABLE, atomically: DIR holds one"
        + " directory per column family, named after it, with that family's files (names starting with '.' or '_'"
        + " are skipped). Every file is checked whole first; a damaged or unsorted file, or one of another family,"
        + " loads nothing and is named. The files are not changed."},
    exitCodeListHeading = "Exit codes:%n",
    exitCodeList = {"0:every file was loaded",
        "1:a file is damaged or cannot be read, or the engine failed; nothing was loaded",
        "2:invalid command line or input (no such table or family, a disabled table, DIR not laid out as DIR/family/file, a file"
            + " unsorted or of another family); nothing was loaded"})
final class BulkLoadSubcommand implements Callable<Integer> {
  @Parameters(index = "0", paramLabel = "TABLE", description = "The table to load into (enabled).")
  String table;

  @Parameters(index = "1", paramLabel = "DIR", description = "The directory of the files: DIR/family/file.")
  Path dir;

  @Option(names = "--data", paramLabel = "DATA", defaultValue = "bellows-data",
      description = "Data directory (default: ${DEFAULT-VALUE}); no other process may have it open.")
  Path data;

  @Option(names = "--connect", paramLabel = "HOST:PORT",
      description = "Load through the server at HOST:PORT instead (admin role; a bearer token is read from"
          + " BELLOWS_TOKEN). The server reads the files from its own disk, at the same absolute paths.")
  String connect;

  @Spec
  CommandSpec spec;

  @Override
  public Integer call() {
    PrintStream out = LinePrintStream.over(spec.commandLine().getOut());
    Map<String, List<Path>> files;
    try {
      files = BulkLoadDirectory.read(dir);
    } catch (RuntimeException e) {
      out.println("ERROR: " + ErrorMessages.describe(e));
      return 2;
    }
    try (Bellows db = connect != null
        ? RemoteEngine.connect(connect, RemoteOptions.defaults().withToken(System.getenv("BELLOWS_TOKEN")))
        : Bellows.open(data, EngineOptions.defaults())) {
      long cells = db.bulkLoad(table, files);
      out.println("Loaded " + cells + " cell(s) from " + BulkLoadDirectory.count(files) + " file(s) into table " + table);
      return ToolOutput.OK;
    } catch (TableNotFoundException | TableNotEnabledException | NoSuchColumnFamilyException | IllegalArgumentException e) {
      out.println("ERROR: " + ErrorMessages.describe(e));
      return 2;
    } catch (RuntimeException e) {
      out.println("ERROR: " + ErrorMessages.describe(e));
      return ToolOutput.DAMAGE_OR_ERROR;
    }
  }
}
