// SPDX-License-Identifier: MIT
// kiln-studio: the desktop application. `kiln-studio [FILE]` opens a workload (.py) or a trace
// (.kiln); `--run` runs the workload first; `--import LOG [--profile JSON]` imports a PyTorch run.
// `--screenshot PNG` renders the window once the selected run is shown and quits (offscreen with
// QT_QPA_PLATFORM=offscreen), for documentation and tests. Without a display (and no
// QT_QPA_PLATFORM), `--run` falls back to the headless `kiln run` and its summary, so the same
// command works on a server.
#include "main_window.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QDir>
#include <QProcess>
#include <QTimer>
#include <cstdio>
#include <cstdlib>
#include <unistd.h>
#include <vector>

namespace {

bool displayAvailable() {
    for (const char* name : {"DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM"}) {
        const char* value = std::getenv(name);
        if (value && *value) return true;
    }
    return false;
}

void addOptions(QCommandLineParser& parser) {
    parser.setApplicationDescription("Kiln Studio: what torch.compile did, run by run.");
    parser.addHelpOption();
    parser.addPositionalArgument("FILE", "A workload (.py) or a trace (.kiln) to open.");
    parser.addOption({"open", "The workload (.py) or trace (.kiln) to open.", "FILE"});
    parser.addOption({"run", "Run the workload once it is open (F5)."});
    parser.addOption({"mode", "The torch.compile mode for --run.", "MODE"});
    parser.addOption({"compare-modes", "Run default and max-autotune and compare them."});
    parser.addOption({"panel", "Raise this panel (runs, source, graph, ...).", "NAME"});
    parser.addOption(
        {"layout", "Arrange the window for a journey: breaks, compare or kernels.", "NAME"});
    parser.addOption(
        {"select", "Select run:N, compile:F/C, graph:ID, kernel:ID, break:N or line:N.", "ITEM"});
    parser.addOption({"graph-view",
                      "The Graph panel's view: post-fusion, pre-fusion, forward, backward or "
                      "joint (AOT autograd's graphs).",
                      "VIEW"});
    parser.addOption({"import",
                      "Import a PyTorch TORCH_TRACE log (.log, or a TORCH_TRACE directory) and "
                      "open it, as File > Import PyTorch Trace does.",
                      "LOG"});
    parser.addOption({"profile",
                      "With --import: a torch.profiler Chrome trace (.json) of the same run, "
                      "for measured kernel times.",
                      "JSON"});
    parser.addOption(
        {"import-to", "With --import: the trace to write (default: LOG's name, .kiln).", "TRACE"});
    parser.addOption({"screenshot", "Save the window as PNG once shown, then quit.", "PNG"});
    parser.addOption({"size", "Window size, WxH.", "WxH", "1600x1000"});
}

QString fileArgument(const QCommandLineParser& parser) {
    QString file = parser.value("open");
    if (file.isEmpty() && !parser.positionalArguments().isEmpty())
        file = parser.positionalArguments().front();
    return file;
}

/// No display: `--run` does what `kiln run` does, in this terminal; the rest needs a window.
int runHeadless(int argc, char** argv) {
    QCoreApplication app(argc, argv);
    QCommandLineParser parser;
    addOptions(parser);
    parser.process(app);
    const QString script = fileArgument(parser);
    std::fprintf(stderr, "kiln-studio: no display (DISPLAY, WAYLAND_DISPLAY and QT_QPA_PLATFORM "
                         "are unset)");
    const bool windowOnly = parser.isSet("compare-modes") || parser.isSet("select") ||
                            parser.isSet("graph-view") || parser.isSet("panel") ||
                            parser.isSet("screenshot") || parser.isSet("import");
    if (!parser.isSet("run") || windowOnly || !script.endsWith(".py")) {
        std::fprintf(stderr, "; open it on a desktop, or set QT_QPA_PLATFORM=offscreen with "
                             "--screenshot (without a display only `--run SCRIPT.py [--mode M]` "
                             "works, through kiln run)\n");
        return 2;
    }
    QStringList args{"run", script};
    if (parser.isSet("mode")) args << "--mode" << parser.value("mode");
    std::fprintf(stderr, "; running the workload headless: kiln %s\n", qPrintable(args.join(' ')));
    const QString kiln = QDir(QCoreApplication::applicationDirPath()).filePath("kiln");
    std::vector<QByteArray> bytes{kiln.toLocal8Bit()};
    for (const QString& a : args)
        bytes.push_back(a.toLocal8Bit());
    std::vector<char*> cargs;
    for (QByteArray& b : bytes)
        cargs.push_back(b.data());
    cargs.push_back(nullptr);
    execv(cargs[0], cargs.data());
    std::perror(("kiln-studio: cannot start " + kiln.toStdString()).c_str());
    return 2;
}

} // namespace

int main(int argc, char** argv) {
    if (!displayAvailable()) return runHeadless(argc, argv);
    QApplication app(argc, argv);
    QApplication::setApplicationName("Kiln Studio");
    QApplication::setOrganizationName("Kiln");
    QApplication::setApplicationVersion(KILN_STUDIO_VERSION); // Help > About says it
    QGuiApplication::setDesktopFileName("kiln-studio"); // matches packaging/kiln-studio.desktop
    QCommandLineParser parser;
    addOptions(parser);
    parser.process(app);

    const QString file = fileArgument(parser);
    kiln::studio::MainWindow window;
    QStringList size = parser.value("size").split('x');
    if (size.size() == 2) window.resize(size[0].toInt(), size[1].toInt());
    if (parser.isSet("screenshot")) window.useDefaultLayout(); // documentation looks the same
    if (parser.isSet("layout")) {
        if (!kiln::studio::MainWindow::journeys().contains(parser.value("layout"))) {
            std::fprintf(stderr, "kiln-studio: no layout '%s' (layouts: %s)\n",
                         qPrintable(parser.value("layout")),
                         qPrintable(kiln::studio::MainWindow::journeys().join(", ")));
            return 2;
        }
        window.useJourney(parser.value("layout"));
    }

    int status = 0;
    const bool screenshot = parser.isSet("screenshot");
    QObject::connect(&window, &kiln::studio::MainWindow::problem, [&](const QString& m) {
        std::fprintf(stderr, "kiln-studio: %s\n", qPrintable(m));
        if (screenshot) {
            status = 1;
            // Queued: a problem can come before the event loop runs, when quit() does nothing.
            QMetaObject::invokeMethod(
                &app, [&app] { app.exit(1); }, Qt::QueuedConnection);
        }
    });
    if (parser.isSet("panel") && !window.showPanel(parser.value("panel"))) {
        std::fprintf(stderr, "kiln-studio: no panel '%s' (panels: %s)\n",
                     qPrintable(parser.value("panel")), qPrintable(window.panelIds().join(", ")));
        return 2;
    }
    if (parser.isSet("graph-view") && !window.setGraphView(parser.value("graph-view"))) {
        std::fprintf(stderr,
                     "kiln-studio: no graph view '%s' (post-fusion, pre-fusion, forward, "
                     "backward or joint)\n",
                     qPrintable(parser.value("graph-view")));
        return 2;
    }
    if (parser.isSet("select") && !window.selectItem(parser.value("select"))) {
        std::fprintf(stderr,
                     "kiln-studio: cannot select '%s' (run:N, compile:F/C, graph:ID, "
                     "kernel:ID, break:N or line:N)\n",
                     qPrintable(parser.value("select")));
        return 2;
    }
    if (screenshot) {
        // By value: the grab runs from the event loop, long after this block ended.
        const QString path = parser.value("screenshot");
        QObject::connect(
            &window, &kiln::studio::MainWindow::ready, [&, path, grabbed = false]() mutable {
                if (grabbed) return;
                grabbed = true;
                // Let the panels finish what they do off the GUI thread (diagram layout) and lay
                // out their new rows before the grab.
                QTimer::singleShot(1500, [&, path] {
                    if (!window.grab().save(path, "PNG")) {
                        std::fprintf(stderr, "kiln-studio: cannot write %s\n", qPrintable(path));
                        status = 1;
                    }
                    app.quit();
                });
            });
    }
    window.show();
    if (!file.isEmpty() && !window.openFile(file)) return 1;
    if (parser.isSet("import")) {
        kiln::studio::ImportRequest request;
        request.logs = kiln::studio::ImportJob::logsOf(parser.value("import"));
        request.profile = parser.value("profile");
        request.trace = parser.isSet("import-to")
                            ? parser.value("import-to")
                            : kiln::studio::ImportJob::defaultTraceFor(parser.value("import"));
        if (request.logs.isEmpty()) {
            std::fprintf(stderr, "kiln-studio: no TORCH_TRACE log at %s\n",
                         qPrintable(parser.value("import")));
            return 2;
        }
        window.startImport(request);
    }
    if (parser.isSet("mode")) window.setRunMode(parser.value("mode"));
    if (parser.isSet("compare-modes"))
        window.compareModes();
    else if (parser.isSet("run"))
        window.runWorkload();
    int code = app.exec();
    return status ? status : code;
}
