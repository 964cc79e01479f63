// The HTML report plugin's Qt plugin object (HtmlReportPlugin.h); the work is in HtmlReport.cpp.
#include "plugins/html_report/HtmlReportPlugin.h"
