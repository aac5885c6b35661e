// SPDX-License-Identifier: MIT
// kiln-studio: opens a trace in the TraceWindow. `--screenshot PNG` renders the window once the
// tables are loaded and saves it (offscreen with QT_QPA_PLATFORM=offscreen), for documentation
// and tests.
#include "trace_window.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QTimer>
#include <cstdio>

int main(int argc, char** argv) {
    QApplication app(argc, argv);
    QApplication::setApplicationName("Kiln Studio");
    QCommandLineParser parser;
    parser.setApplicationDescription("Kiln Studio: what torch.compile did, from a Kiln trace.");
    parser.addHelpOption();
    parser.addOption({"open", "The trace (.kiln) to open.", "TRACE"});
    parser.addOption({"screenshot", "Save the window as PNG once loaded, then quit.", "PNG"});
    parser.addOption({"size", "Window size for the screenshot, WxH.", "WxH", "1400x900"});
    parser.process(app);
    if (!parser.isSet("open")) {
        std::fprintf(stderr,
                     "kiln-studio: --open TRACE is required (running workloads comes later)\n");
        return 2;
    }
    kiln::studio::TraceWindow window(parser.value("open"));
    QStringList size = parser.value("size").split('x');
    if (size.size() == 2) window.resize(size[0].toInt(), size[1].toInt());
    int status = 0;
    if (parser.isSet("screenshot")) {
        QString path = parser.value("screenshot");
        QObject::connect(&window, &kiln::studio::TraceWindow::failed, [&](const QString& m) {
            std::fprintf(stderr, "kiln-studio: %s\n", qPrintable(m));
            status = 1;
            app.quit();
        });
        QObject::connect(&window, &kiln::studio::TraceWindow::loaded, [&] {
            // One turn of the event loop so the views lay out their new rows first.
            QTimer::singleShot(0, [&] {
                if (!window.grab().save(path, "PNG")) {
                    std::fprintf(stderr, "kiln-studio: cannot write %s\n", qPrintable(path));
                    status = 1;
                }
                app.quit();
            });
        });
    }
    window.show();
    window.load();
    int code = app.exec();
    return status ? status : code;
}
