// Module federation needs an asynchronous boundary: shared singletons (react, the ui
// package, …) are negotiated with the remotes before any module that uses them runs.
import('./bootstrap.tsx');
