// SPDX-License-Identifier: MIT
// kiln-studio: the desktop application. `kiln-studio [FILE]` opens a workload (.py) or a trace
// (.kiln); `--run` runs the workload first. `--screenshot PNG` renders the window once the
// selected run is shown and quits (offscreen with QT_QPA_PLATFORM=offscreen), for documentation
// and tests. Without a display (and no QT_QPA_PLATFORM), `--run` falls back to the headless
// `kiln run` and its summary, so the same command works on a server.
#include "main_window.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QProcess>
#include <QTimer>
#include <cstdio>
#include <cstdlib>
#include <unistd.h>

namespace {

bool displayAvailable() {
    for (const char* name : {"DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM"}) {
        const char* value = std::getenv(name);
        if (value && *value) return true;
    }
    return false;
}

/// No display: do what `kiln run` does, in this terminal.
int runHeadless(int argc, char** argv) {
    std::string script;
    bool run = false;
    for (int i = 1; i < argc; ++i) {
        std::string arg = argv[i];
        if (arg == "--run") run = true;
        if (arg == "--open" && i + 1 < argc) script = argv[++i];
        if (!arg.empty() && arg[0] != '-') script = arg;
    }
    std::fprintf(stderr, "kiln-studio: no display (DISPLAY, WAYLAND_DISPLAY and QT_QPA_PLATFORM "
                         "are unset)");
    if (!run || script.size() < 3 || script.substr(script.size() - 3) != ".py") {
        std::fprintf(stderr, "; open it on a desktop, or set QT_QPA_PLATFORM=offscreen with "
                             "--screenshot\n");
        return 2;
    }
    std::fprintf(stderr, "; running the workload headless: kiln run %s\n", script.c_str());
    std::string kiln = QCoreApplication::applicationDirPath().toStdString();
    char self[4096];
    ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    if (n > 0) {
        self[n] = '\0';
        kiln = std::string(self);
        kiln = kiln.substr(0, kiln.rfind('/')) + "/kiln";
    }
    execl(kiln.c_str(), kiln.c_str(), "run", script.c_str(), static_cast<char*>(nullptr));
    std::perror(("kiln-studio: cannot start " + kiln).c_str());
    return 2;
}

} // namespace

int main(int argc, char** argv) {
    if (!displayAvailable()) return runHeadless(argc, argv);
    QApplication app(argc, argv);
    QApplication::setApplicationName("Kiln Studio");
    QApplication::setOrganizationName("Kiln");
    // The installed launcher (packaging/kiln-studio.desktop): on Wayland this is the window's
    // app id, so the desktop shows the launcher's name and icon for it.
    QGuiApplication::setDesktopFileName("kiln-studio");
    QCommandLineParser parser;
    parser.setApplicationDescription("Kiln Studio: what torch.compile did, run by run.");
    parser.addHelpOption();
    parser.addPositionalArgument("FILE", "A workload (.py) or a trace (.kiln) to open.");
    parser.addOption({"open", "The workload (.py) or trace (.kiln) to open.", "FILE"});
    parser.addOption({"run", "Run the workload once it is open (F5)."});
    parser.addOption({"mode", "The torch.compile mode for --run.", "MODE"});
    parser.addOption({"compare-modes", "Run default and max-autotune and compare them."});
    parser.addOption({"panel", "Raise this panel (runs, source, graph, ...).", "NAME"});
    parser.addOption(
        {"select", "Select run:N, compile:F/C, graph:ID, kernel:ID, break:N or line:N.", "ITEM"});
    parser.addOption({"screenshot", "Save the window as PNG once shown, then quit.", "PNG"});
    parser.addOption({"size", "Window size, WxH.", "WxH", "1600x1000"});
    parser.process(app);

    QString file = parser.value("open");
    if (file.isEmpty() && !parser.positionalArguments().isEmpty())
        file = parser.positionalArguments().front();
    kiln::studio::MainWindow window;
    QStringList size = parser.value("size").split('x');
    if (size.size() == 2) window.resize(size[0].toInt(), size[1].toInt());
    if (parser.isSet("screenshot")) window.useDefaultLayout(); // documentation looks the same

    int status = 0;
    const bool screenshot = parser.isSet("screenshot");
    QObject::connect(&window, &kiln::studio::MainWindow::problem, [&](const QString& m) {
        std::fprintf(stderr, "kiln-studio: %s\n", qPrintable(m));
        if (screenshot) {
            status = 1;
            app.quit();
        }
    });
    if (parser.isSet("panel") && !window.showPanel(parser.value("panel"))) {
        std::fprintf(stderr, "kiln-studio: no panel '%s' (panels: %s)\n",
                     qPrintable(parser.value("panel")), qPrintable(window.panelIds().join(", ")));
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
        QString path = parser.value("screenshot");
        QObject::connect(&window, &kiln::studio::MainWindow::ready, [&, grabbed = false]() mutable {
            if (grabbed) return;
            grabbed = true;
            // Let the panels finish what they do off the GUI thread (diagram layout) and lay
            // out their new rows before the grab.
            QTimer::singleShot(1500, [&] {
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
    if (parser.isSet("mode")) window.setRunMode(parser.value("mode"));
    if (parser.isSet("compare-modes"))
        window.compareModes();
    else if (parser.isSet("run"))
        window.runWorkload();
    int code = app.exec();
    return status ? status : code;
}
