// The default VitePress theme plus the styles of the benchmark charts.
import DefaultTheme from "vitepress/theme";
import "./bench-charts.css";

export default DefaultTheme;
