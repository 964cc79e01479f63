// Plugin discovery, manifests, dependency order (PluginManager.h).
#include "app/gui/PluginManager.h"

#include <QCoreApplication>
#include <QDir>
#include <QJsonArray>
#include <QJsonObject>
#include <QLibrary>
#include <QPluginLoader>
#include <QSet>

#include "app/gui/PanelRegistry.h"
#include "app/gui/Session.h"

namespace ts::gui {

PluginManager& PluginManager::instance() {
    static PluginManager m;
    return m;
}

QStringList PluginManager::searchPath() {
    QStringList dirs;
    for (const QString& d :
         qEnvironmentVariable("TILESCOPE_PLUGIN_PATH").split(':', Qt::SkipEmptyParts))
        dirs << d;
    dirs << QCoreApplication::applicationDirPath() + "/plugins";
    return dirs;
}

int PluginManager::compareVersions(const QString& a, const QString& b) {
    QStringList x = a.split('.'), y = b.split('.');
    for (int i = 0; i < std::max(x.size(), y.size()); ++i) {
        int u = i < x.size() ? x[i].toInt() : 0, v = i < y.size() ? y[i].toInt() : 0;
        if (u != v) return u < v ? -1 : 1;
    }
    return 0;
}

void PluginManager::loadAll(const QStringList& dirsIn) {
    const QStringList dirs = dirsIn.isEmpty() ? searchPath() : dirsIn;
    // 1. Candidates and their manifests (reading metadata does not load the library).
    QList<PluginRecord> found;
    QSet<QString> seenFiles;
    for (const PluginRecord& r : m_records) seenFiles.insert(r.file);
    for (const QString& d : dirs) {
        for (const QFileInfo& fi : QDir(d).entryInfoList(QDir::Files)) {
            if (!QLibrary::isLibrary(fi.fileName()) || seenFiles.contains(fi.absoluteFilePath()))
                continue;
            seenFiles.insert(fi.absoluteFilePath());
            QPluginLoader loader(fi.absoluteFilePath());
            QJsonObject meta = loader.metaData();
            PluginRecord rec;
            rec.file = fi.absoluteFilePath();
            if (meta.value("IID").toString() != TsPlugin_iid) {
                rec.error = QObject::tr("not a TileScope plugin (interface %1)")
                                .arg(meta.value("IID").toString());
                rec.name = fi.fileName();
                found << rec;
                continue;
            }
            QJsonObject m = meta.value("MetaData").toObject();
            rec.id = m.value("id").toString();
            rec.name = m.value("name").toString(rec.id);
            rec.version = m.value("version").toString("0");
            rec.description = m.value("description").toString();
            for (const QJsonValue& dep : m.value("dependencies").toArray()) {
                if (dep.isString())
                    rec.dependencies << dep.toString();
                else
                    rec.dependencies << dep.toObject().value("id").toString() +
                                            ">=" + dep.toObject().value("version").toString("0");
            }
            if (rec.id.isEmpty()) rec.error = QObject::tr("manifest has no \"id\"");
            found << rec;
        }
    }
    // 2. Load in dependency order: repeatedly load every plugin whose dependencies are loaded;
    //    what remains has a missing, too old, or cyclic dependency.
    auto isLoaded = [this](const QString& id, const QString& minVersion, QString* why) {
        for (const PluginRecord& r : m_records)
            if (r.id == id && r.loaded) {
                if (compareVersions(r.version, minVersion) >= 0) return true;
                *why = QObject::tr("needs %1 >= %2, found %3").arg(id, minVersion, r.version);
                return false;
            }
        *why = QObject::tr("needs %1, which is not loaded").arg(id);
        return false;
    };
    bool progress = true;
    while (progress) {
        progress = false;
        for (PluginRecord& rec : found) {
            if (rec.loaded || !rec.error.isEmpty()) continue;
            bool ready = true;
            for (const QString& dep : rec.dependencies) {
                QStringList parts = dep.split(">=");
                QString why;
                if (!isLoaded(parts[0], parts.value(1, "0"), &why)) ready = false;
            }
            if (!ready) continue;
            for (const PluginRecord& r : m_records)
                if (r.id == rec.id && r.loaded)
                    rec.error = QObject::tr("another plugin with id %1 is loaded").arg(rec.id);
            if (!rec.error.isEmpty()) continue;
            QPluginLoader loader(rec.file);
            QObject* obj = loader.instance();
            rec.instance = qobject_cast<plugin::Plugin*>(obj);
            if (!rec.instance) {
                rec.error = obj ? QObject::tr("does not implement the plugin interface")
                                : loader.errorString();
                continue;
            }
            rec.loaded = true;
            m_records << rec;
            progress = true;
        }
    }
    for (PluginRecord& rec : found) {
        if (rec.loaded) continue;
        if (rec.error.isEmpty()) {
            QStringList why;
            for (const QString& dep : rec.dependencies) {
                QStringList parts = dep.split(">=");
                QString w;
                if (!isLoaded(parts[0], parts.value(1, "0"), &w)) why << w;
            }
            rec.error = why.isEmpty() ? QObject::tr("dependency cycle") : why.join("; ");
        }
        m_records << rec;
    }
}

plugin::PanelContext panelContextFor(Session& s) {
    plugin::PanelContext c;
    c.result = [&s] { return std::static_pointer_cast<const CompileResult>(s.result()); };
    c.path = [&s] { return s.path(); };
    c.text = [&s] { return s.text(); };
    c.onResultChanged = [&s](QObject* receiver, std::function<void()> fn) {
        QObject::connect(&s, &Session::resultChanged, receiver, std::move(fn));
    };
    return c;
}

void PluginManager::registerPanels() {
    for (const PluginRecord& r : m_records) {
        if (!r.loaded) continue;
        for (const plugin::PanelSpec& p : r.instance->panels()) {
            PanelFactory f;
            f.id = p.id;
            f.title = p.title;
            f.area = p.bottom ? Qt::BottomDockWidgetArea : Qt::RightDockWidgetArea;
            f.tabGroup = p.bottom ? "bottom" : "plugins";
            auto create = p.create;
            f.create = [create](Session& s) { return create(panelContextFor(s)); };
            registerPanel(std::move(f));
        }
    }
}

QList<plugin::Exporter*> PluginManager::exporters() const {
    QList<plugin::Exporter*> out;
    for (const PluginRecord& r : m_records)
        if (r.loaded) out += r.instance->exporters();
    return out;
}

QList<plugin::SampleInfo> PluginManager::samples() const {
    QList<plugin::SampleInfo> out;
    for (const PluginRecord& r : m_records)
        if (r.loaded) out += r.instance->samples();
    return out;
}

}  // namespace ts::gui
